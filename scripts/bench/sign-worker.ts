// A signing Worker of scripts/bench/bench-sign.ts: signs the jobs it is given and posts back
// their request bodies.
import { type SignJob, signJobsHere } from './bench-sign.ts'

declare const self: Worker

self.onmessage = (e: MessageEvent<{ jobs: SignJob[]; network: string }>) => {
  self.postMessage(signJobsHere(e.data.jobs, e.data.network))
}

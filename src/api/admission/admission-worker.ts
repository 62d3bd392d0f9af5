// An admission thread (admission-pool.ts): runs the stateless part of /action (action-intake.ts, or
// post-intake.ts for a WebSocket post frame) on the batches of bodies the block thread sends it and
// sends back what it made of each, in plain data.
import { actionIntake } from './action-intake.ts'
import {
  type AdmissionAnswer,
  type AdmissionBody,
  type FromAdmissionThread,
  REPLY_BATCH_MAX,
  type ToAdmissionThread,
} from './admission-pool.ts'
import { postIntake } from './post-intake.ts'

declare const self: Worker

let network: string | undefined

self.onmessage = (event: MessageEvent<ToAdmissionThread>) => {
  const m = event.data
  if (m.type === 'init') {
    network = m.network
    return
  }
  let answers: AdmissionAnswer[] = []
  for (const body of m.bodies) {
    answers.push(answer(body))
    if (answers.length === REPLY_BATCH_MAX) {
      self.postMessage({ type: 'answers', answers } satisfies FromAdmissionThread)
      answers = []
    }
  }
  if (answers.length > 0) self.postMessage({ type: 'answers', answers } satisfies FromAdmissionThread)
}

function answer(body: AdmissionBody): AdmissionAnswer {
  try {
    if (network === undefined) throw new Error('admission thread used before its init message')
    return { id: body.id, intake: body.post ? postIntake(body.text, network) : actionIntake(body.text, network) }
  } catch (err) {
    // A bug, as it would be inline: the request gets the API's 500, the thread lives on.
    return { id: body.id, error: err instanceof Error ? err.message : String(err) }
  }
}

// Every module is loaded once this runs (the native secp256k1 addon among them): the pool may now
// terminate this thread safely (admission-pool.ts Thread.loaded).
self.postMessage({ type: 'loaded' } satisfies FromAdmissionThread)

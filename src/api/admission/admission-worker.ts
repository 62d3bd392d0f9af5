// An admission thread (admission-pool.ts): runs the stateless part of /action (action-intake.ts) on
// the bodies the block thread sends it and sends back what it made of each, in plain data.
import { actionIntake } from './action-intake.ts'
import type { FromAdmissionThread, ToAdmissionThread } from './admission-pool.ts'

declare const self: Worker

let network: string | undefined

self.onmessage = (event: MessageEvent<ToAdmissionThread>) => {
  const m = event.data
  if (m.type === 'init') {
    network = m.network
    return
  }
  let reply: FromAdmissionThread
  try {
    if (network === undefined) throw new Error('admission thread used before its init message')
    reply = { id: m.id, intake: actionIntake(m.text, network) }
  } catch (err) {
    // A bug, as it would be inline: the request gets the API's 500, the thread lives on.
    reply = { id: m.id, error: err instanceof Error ? err.message : String(err) }
  }
  self.postMessage(reply)
}

// Every module is loaded once this runs (the native secp256k1 addon among them): the pool may now
// terminate this thread safely (admission-pool.ts Thread.loaded).
self.postMessage({ type: 'loaded' } satisfies FromAdmissionThread)

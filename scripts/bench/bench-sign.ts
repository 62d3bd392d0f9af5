// Signing for the load generator (scripts/bench/load.ts): L1 actions signed ahead of the timed
// section into ready /action request bodies, on libsecp256k1 through the npm `secp256k1` addon
// where it loads (about 10x faster than @noble/curves), else with src/wire/signing.ts. Both give
// the same RFC 6979 low-s signature, so the node sees the same envelope either way.
// signBodies spreads the work over Worker threads (scripts/bench/sign-worker.ts).
import { join } from 'node:path'
import { bytesToHex, hexToBytes } from '../../src/lib/hex.ts'
import { l1Digest, signDigest, sourceForNetwork, type WireSignature } from '../../src/wire/signing.ts'

interface NativeSigner {
  ecdsaSign(
    out: { signature: Uint8Array; recid: number | null },
    msg32: Uint8Array,
    seckey: Uint8Array,
    data: undefined,
    noncefn: undefined,
  ): number
}

const native: NativeSigner | undefined = (() => {
  if (process.platform !== 'linux' || process.arch !== 'x64') return undefined
  try {
    const addon = require(join(import.meta.dir, '../../node_modules/secp256k1/prebuilds/linux-x64/secp256k1.glibc.node')) as {
      Secp256k1: new () => NativeSigner
    }
    return new addon.Secp256k1()
  } catch {
    return undefined
  }
})()

/** Which library signs: 'libsecp256k1' or 'noble'. */
export const signingLibrary = native === undefined ? 'noble' : 'libsecp256k1'

/** An L1 action and the nonce to sign it with. */
export interface SignItem {
  readonly action: Record<string, unknown>
  readonly nonce: number
}

/** One signer's items. */
export interface SignJob {
  readonly key: string
  readonly items: readonly SignItem[]
}

/** Signs an L1 action (docs/protocol.md#l1-actions). */
export function signL1(key: Uint8Array, action: Record<string, unknown>, nonce: number, network: string): WireSignature {
  const digest = l1Digest(action, nonce, sourceForNetwork(network))
  if (native === undefined) return signDigest(key, digest)
  const out = { signature: new Uint8Array(64), recid: null as number | null }
  if (native.ecdsaSign(out, digest, key, undefined, undefined) !== 0) throw new Error('libsecp256k1 could not sign')
  return { r: bytesToHex(out.signature.subarray(0, 32)), s: bytesToHex(out.signature.subarray(32, 64)), v: 27 + out.recid! }
}

/** The /action request body of a signed action (JSON-RPC id: the nonce). */
export function actionBody(action: Record<string, unknown>, nonce: number, signature: WireSignature): string {
  return JSON.stringify({ jsonrpc: '2.0', id: nonce, method: 'action', params: { action, nonce, signature } })
}

/** Signs every item of the jobs here, job by job: request bodies in item order. */
export function signJobsHere(jobs: readonly SignJob[], network: string): string[][] {
  return jobs.map((job) => {
    const key = hexToBytes(job.key)
    return job.items.map((it) => actionBody(it.action, it.nonce, signL1(key, it.action, it.nonce, network)))
  })
}

/**
 * Signs every item of the jobs on `workers` Worker threads (0: here): request bodies, job by
 * job, in item order.
 */
export async function signBodies(jobs: readonly SignJob[], network: string, workers: number): Promise<string[][]> {
  if (workers <= 0 || jobs.length === 0) return signJobsHere(jobs, network)
  const count = Math.min(workers, jobs.length)
  // Job i goes to worker i mod count.
  const shares = Array.from({ length: count }, (_, w) => jobs.filter((_, i) => i % count === w))
  const results = await Promise.all(
    shares.map(
      (share) =>
        new Promise<string[][]>((resolve, reject) => {
          const worker = new Worker(new URL('./sign-worker.ts', import.meta.url).href)
          worker.onmessage = (e: MessageEvent<string[][]>) => {
            worker.terminate()
            resolve(e.data)
          }
          worker.onerror = (e) => {
            worker.terminate()
            reject(new Error(`sign worker: ${e.message}`))
          }
          worker.postMessage({ jobs: share, network })
        }),
    ),
  )
  return jobs.map((_, i) => results[i % count]![Math.floor(i / count)]!)
}

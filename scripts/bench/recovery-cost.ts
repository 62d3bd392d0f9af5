// What one signature recovery costs on this machine, as the node's admission runs it
// (src/wire/signing.ts recoverAddress: libsecp256k1 where its addon loads, else @noble/curves).
// Every signed action costs the node at least one, so N cores admit at most N / recovery actions
// per second whatever else the node does: the ceiling the load generator (load.ts) sets its
// capacity figure against, and a yardstick for comparing figures taken on different machines.
import { keccak256 } from '../../src/lib/keccak.ts'
import { DEV_PRIVATE_KEYS } from '../../src/node/dev-banner.ts'
import { nativeRecoveryAvailable } from '../../src/wire/native-secp256k1.ts'
import { addressOfPrivateKey, recoverAddress, signDigest } from '../../src/wire/signing.ts'
import { percentile } from './stats.ts'

export interface RecoveryCost {
  /** Median µs per recovery over the timed passes. */
  readonly micros: number
  readonly library: 'libsecp256k1' | '@noble/curves'
}

/** Times passes over `signatures` distinct signatures (one warm-up pass, then `passes`), on this thread. */
export function measureRecovery(signatures = 200, passes = 5): RecoveryCost {
  const signed = Array.from({ length: signatures }, (_, i) => {
    const digest = keccak256(new TextEncoder().encode(`perpd-bench-recovery-${i}`))
    const sig = signDigest(DEV_PRIVATE_KEYS[0]!, digest)
    return { digest, r: BigInt(sig.r), s: BigInt(sig.s), recovery: (sig.v - 27) as 0 | 1 }
  })
  const signer = addressOfPrivateKey(DEV_PRIVATE_KEYS[0]!)
  for (const x of signed.slice(0, 3))
    if (recoverAddress(x.digest, x.r, x.s, x.recovery) !== signer) throw new Error('a signature made here did not recover its signer')
  const perPass: number[] = []
  for (let pass = 0; pass <= passes; pass++) {
    const t0 = performance.now()
    for (const x of signed) recoverAddress(x.digest, x.r, x.s, x.recovery)
    if (pass > 0) perPass.push(((performance.now() - t0) * 1_000) / signed.length)
  }
  perPass.sort((a, b) => a - b)
  return { micros: percentile(perPass, 50), library: nativeRecoveryAvailable ? 'libsecp256k1' : '@noble/curves' }
}

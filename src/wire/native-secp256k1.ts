// libsecp256k1 through the prebuilt N-API addon of the npm `secp256k1` package, for public-key
// recovery on the admission hot path: about 0.13 ms per recovery against about 0.6-0.9 ms for
// @noble/curves on this machine (scripts/bench/admission.ts times it alone). The addon is
// required by a static path so `bun build --compile` embeds it in the executable; where it is not
// available (another platform), callers fall back to noble, which gives identical results
// (signing.test.ts checks).

/** The addon's recovery entry point: writes the 65-byte uncompressed key, returns 0 on success. */
interface Secp256k1Addon {
  ecdsaRecover(output: Uint8Array, signature64: Uint8Array, recid: number, msg32: Uint8Array): number
}

function load(): Secp256k1Addon | undefined {
  if (process.platform !== 'linux' || process.arch !== 'x64') return undefined
  try {
    const addon = require('../../node_modules/secp256k1/prebuilds/linux-x64/secp256k1.glibc.node') as {
      Secp256k1: new () => Secp256k1Addon
    }
    return new addon.Secp256k1()
  } catch {
    return undefined
  }
}

const native = load()

/** Whether recovery runs on libsecp256k1 (true) or falls back to noble (false). */
export const nativeRecoveryAvailable = native !== undefined

/** Recovers the 65-byte uncompressed public key, or undefined; only when nativeRecoveryAvailable. */
export function nativeRecover(digest: Uint8Array, signature64: Uint8Array, recovery: number): Uint8Array | undefined {
  const out = new Uint8Array(65)
  return native!.ecdsaRecover(out, signature64, recovery, digest) === 0 ? out : undefined
}

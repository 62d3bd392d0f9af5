// libsecp256k1 for public-key recovery on the admission hot path, from the first of these that
// loads:
// - the system's libsecp256k1, release 0.2 or newer (Debian 12: the package libsecp256k1-1),
//   through bun:ffi. Its safegcd inversions make a recovery about 30% cheaper than the 2019
//   library inside the npm addon: 33 against 47 µs on one 2-vCPU development machine, 61 against
//   88 on a slower one (scripts/bench/admission.ts);
// - the prebuilt N-API addon of the npm `secp256k1` package, required by a static path so
//   `bun build --compile` embeds it in the executable.
// Where neither loads (another platform), callers fall back to @noble/curves, ten times slower.
// All three give identical results (signing.test.ts checks). The start-up log names the one in use.
import { dlopen, FFIType } from 'bun:ffi'

/** Writes the 65-byte uncompressed public key into out; false when no key recovers. */
export type Recover = (out: Uint8Array, digest: Uint8Array, signature64: Uint8Array, recovery: number) => boolean

/** Where recovery runs: the system's libsecp256k1, the npm addon's, or noble (the JavaScript fallback). */
export type RecoveryLibrary = 'system' | 'addon' | 'noble'

/** libsecp256k1's sonames, newest first: 0.2 is .so.1, and each release that changes its ABI adds one. */
const SYSTEM_LIBRARY_NAMES = [6, 5, 4, 3, 2, 1].map((abi) => `libsecp256k1.so.${abi}`)
const CONTEXT_NONE = 0x0001 // SECP256K1_CONTEXT_NONE: from 0.2 on, a context needs no tables to recover
const EC_UNCOMPRESSED = 0x0002 // SECP256K1_EC_UNCOMPRESSED
// libsecp256k1's opaque structs, whose sizes its ABI fixes.
const RECOVERABLE_SIGNATURE_BYTES = 65
const PUBLIC_KEY_BYTES = 64

const SYSTEM_SYMBOLS = {
  secp256k1_context_create: { args: [FFIType.u32], returns: FFIType.ptr },
  // Added in 0.2, the first release with the fast inversions: an older library does not load.
  secp256k1_selftest: { args: [], returns: FFIType.void },
  secp256k1_ecdsa_recoverable_signature_parse_compact: { args: [FFIType.ptr, FFIType.ptr, FFIType.ptr, FFIType.i32], returns: FFIType.i32 },
  secp256k1_ecdsa_recover: { args: [FFIType.ptr, FFIType.ptr, FFIType.ptr, FFIType.ptr], returns: FFIType.i32 },
  secp256k1_ec_pubkey_serialize: { args: [FFIType.ptr, FFIType.ptr, FFIType.ptr, FFIType.ptr, FFIType.u32], returns: FFIType.i32 },
} as const

/** The library's functions, or undefined when it is not installed or lacks one of them. */
function openLibrary(name: string) {
  try {
    return dlopen(name, SYSTEM_SYMBOLS).symbols
  } catch {
    return undefined
  }
}

/**
 * recover behind a check of its arguments: C reads and writes the arrays by pointer, whatever their
 * length, and libsecp256k1 aborts the process on a recovery id outside 0-3 or an output under 65
 * bytes. Anything else is answered false before it reaches C.
 */
function checked(recover: Recover): Recover {
  return (out, digest, signature64, recovery) =>
    out.length === 65 &&
    digest.length === 32 &&
    signature64.length === 64 &&
    Number.isInteger(recovery) &&
    recovery >= 0 &&
    recovery <= 3 &&
    recover(out, digest, signature64, recovery)
}

/** Recovery through the system's libsecp256k1 (0.2 or newer), or undefined where none loads. */
export function loadSystemLibrary(): Recover | undefined {
  for (const name of SYSTEM_LIBRARY_NAMES) {
    const lib = openLibrary(name)
    if (lib === undefined) continue
    lib.secp256k1_selftest() // aborts the process if the library is miscompiled for this machine
    const context = lib.secp256k1_context_create(CONTEXT_NONE)
    if (context === null) return undefined
    // One set of buffers per thread: a call runs to its end before another starts.
    const signature = new Uint8Array(RECOVERABLE_SIGNATURE_BYTES)
    const publicKey = new Uint8Array(PUBLIC_KEY_BYTES)
    const outLength = new BigUint64Array(1)
    return checked((out, digest, signature64, recovery) => {
      if (lib.secp256k1_ecdsa_recoverable_signature_parse_compact(context, signature, signature64, recovery) !== 1) return false
      if (lib.secp256k1_ecdsa_recover(context, publicKey, signature, digest) !== 1) return false
      outLength[0] = BigInt(out.length)
      return lib.secp256k1_ec_pubkey_serialize(context, out, outLength, publicKey, EC_UNCOMPRESSED) === 1
    })
  }
  return undefined
}

/** The addon's recovery entry point: writes the 65-byte uncompressed key, returns 0 on success. */
interface Secp256k1Addon {
  ecdsaRecover(output: Uint8Array, signature64: Uint8Array, recid: number, msg32: Uint8Array): number
}

/** Recovery through the npm addon's libsecp256k1, or undefined on another platform. */
export function loadAddon(): Recover | undefined {
  if (process.platform !== 'linux' || process.arch !== 'x64') return undefined
  try {
    const addon = require('../../node_modules/secp256k1/prebuilds/linux-x64/secp256k1.glibc.node') as {
      Secp256k1: new () => Secp256k1Addon
    }
    const secp = new addon.Secp256k1()
    return checked((out, digest, signature64, recovery) => secp.ecdsaRecover(out, signature64, recovery, digest) === 0)
  } catch {
    return undefined
  }
}

function choose(): { library: RecoveryLibrary; recover: Recover | undefined } {
  const system = loadSystemLibrary()
  if (system !== undefined) return { library: 'system', recover: system }
  const addon = loadAddon()
  return addon !== undefined ? { library: 'addon', recover: addon } : { library: 'noble', recover: undefined }
}

const chosen = choose()

/** Which library recovers signatures in this process, for the start-up log. */
export const recoveryLibrary: RecoveryLibrary = chosen.library

/** Whether recovery runs on libsecp256k1 (true) or falls back to noble (false). */
export const nativeRecoveryAvailable = chosen.recover !== undefined

/** Recovers the 65-byte uncompressed public key, or undefined; only when nativeRecoveryAvailable. */
export function nativeRecover(digest: Uint8Array, signature64: Uint8Array, recovery: number): Uint8Array | undefined {
  const out = new Uint8Array(65)
  return chosen.recover!(out, digest, signature64, recovery) ? out : undefined
}

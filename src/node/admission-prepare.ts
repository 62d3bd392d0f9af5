// The stateless part of admitting a signed action (docs/protocol.md#envelope, docs/protocol.md#l1-actions):
// schema, payload schema, strings that can be hashed, the signing digest, signature recovery, the tx
// hash and the envelope as the chain takes it (edge-envelope.ts atTheEdge). It reads no chain state,
// only the network the chain runs (fixed by its genesis), so it runs inline on the block thread or
// in an admission Worker thread (src/api/admission-pool.ts) with the same result; admission.ts
// runs the stateful part on the block thread.
//
// A Worker imports this file, so it imports from the chain only types: the chain stays off the
// admission threads.
import type { EnvelopeInput } from '../chain/index.ts'
import { ACTION_KIND_BY_NAME, type ActionKindSpec } from '../wire/actions.ts'
import { ActionParamsSchema } from '../wire/envelope.ts'
import { RPC, type RpcError, rpcError } from '../wire/rpc-errors.ts'
import { l1Digest, parseSignature, recoverAddress, sourceForNetwork, txHash, userSignedDigest } from '../wire/signing.ts'
import { compileValidator } from '../wire/validate.ts'
import { atTheEdge } from './edge-envelope.ts'

export type WireSignature = { r: string; s: string; v: number }

/** The signer an action's signature recovers to, with what its digest gives; or why there is none. */
export type RecoveredSigner =
  | { readonly ok: true; readonly signer: string; readonly txHash: string; readonly input: EnvelopeInput }
  | { readonly ok: false; readonly error: RpcError }

/**
 * A /action params object after the stateless checks: a refusal (schema), or the action with its
 * recovered signer. A signature that recovers nothing is carried, not refused, because the
 * stateful checks that come first in the order of refusals (admission.ts) need state. Plain data
 * (structured-clone friendly), so an admission Worker can send it to the block thread.
 */
export type PreparedAction =
  | { readonly ok: false; readonly error: RpcError }
  | {
      readonly ok: true
      readonly kind: string
      readonly nonce: number
      /** The action exactly as signed (stored, and hashed into the tx hash). */
      readonly action: Record<string, unknown>
      /** The action's and the signature's JSON as the block store keeps them, made here, off the block thread. */
      readonly actionJson: string
      readonly signatureJson: string
      readonly recovered: RecoveredSigner
    }

const paramsValidator = compileValidator(ActionParamsSchema)
const payloadValidators = new Map<string, ReturnType<typeof compileValidator>>()
function payloadValidator(kind: ActionKindSpec) {
  let v = payloadValidators.get(kind.name)
  if (v === undefined) {
    v = compileValidator(kind.schema)
    payloadValidators.set(kind.name, v)
  }
  return v
}

export const invalidParams = (field: string, message: string) => ({
  ok: false as const,
  error: rpcError(RPC.invalidParams, 'INVALID_PARAMS', `${field}: ${message}`, { field }),
})

/** The stateless checks of a /action params object on the chain of `network`. Pure. */
export function prepareAdmission(params: unknown, network: string): PreparedAction {
  const shape = paramsValidator.validate(params, 'params')
  if (!shape.ok) return invalidParams(shape.field, shape.message)
  const p = params as { action: Record<string, unknown>; nonce: number; signature: WireSignature }
  const keys = Object.keys(p.action)
  if (keys.length !== 1) return invalidParams('params.action', `must have exactly one key, the action kind; got ${keys.length}`)
  const kindName = keys[0]!
  const kind = ACTION_KIND_BY_NAME.get(kindName)
  if (kind === undefined) return invalidParams('params.action', `unknown action kind ${JSON.stringify(kindName).slice(0, 80)}`)
  const payload = p.action[kindName]
  const checked = payloadValidator(kind).validate(payload, `params.action.${kindName}`)
  if (!checked.ok) return invalidParams(checked.field, checked.message)
  const illFormed = illFormedStringField(payload, `params.action.${kindName}`)
  if (illFormed !== undefined) return invalidParams(illFormed, 'contains a lone UTF-16 surrogate, which has no UTF-8 encoding to sign')
  return {
    ok: true,
    kind: kindName,
    nonce: p.nonce,
    action: p.action,
    actionJson: JSON.stringify(p.action),
    signatureJson: JSON.stringify(p.signature),
    recovered: recoverSigner(kind, p, network),
  }
}

function recoverSigner(
  kind: ActionKindSpec,
  p: { action: Record<string, unknown>; nonce: number; signature: WireSignature },
  network: string,
): RecoveredSigner {
  const sig = parseSignature(p.signature)
  if (!sig.ok) return { ok: false, error: rpcError(RPC.badSignature, sig.reason, sig.message) }
  const payload = p.action[kind.name] as Record<string, unknown>
  // A user-signed kind signed for another network is refused by the stateful checks (WRONG_NETWORK)
  // before its signature is looked at; its digest here is then unused.
  const digest =
    kind.auth === 'user_signed_master'
      ? userSignedDigest(kind.name, kind.typedFields ?? [], payload, BigInt((payload as { signature_chain_id: string }).signature_chain_id))
      : l1Digest(p.action, p.nonce, sourceForNetwork(network))
  const signer = recoverAddress(digest, sig.r, sig.s, sig.recovery)
  if (signer === undefined)
    return { ok: false, error: rpcError(RPC.badSignature, 'BAD_SIGNATURE', 'the signature does not recover to a public key') }
  const hash = txHash(digest, sig.r, sig.s, sig.v)
  return { ok: true, signer, txHash: hash, input: atTheEdge({ signer, nonce: p.nonce, action: p.action, txHash: hash }, kind.name) }
}

/**
 * The first string field (path) holding a lone UTF-16 surrogate: JSON can carry one (`"\ud800"`)
 * but neither msgpack nor EIP-712 can hash it, so it is refused here rather than failing the hash.
 */
function illFormedStringField(value: unknown, path: string): string | undefined {
  const keys = illFormedKeys(value)
  return keys === undefined ? undefined : [path, ...keys].join('.')
}

/**
 * The keys from value down to its first ill-formed string, or to the object holding its first
 * ill-formed key; undefined when every string is well formed. The path is made only for that one:
 * made for every field, it was a sixth of a 50-order batch's admission in a profile, and without it
 * a batch's admission takes 216 µs instead of 285 (medians of three alternated runs of `bun
 * scripts/bench/admission.ts --batch-orders 50`).
 */
function illFormedKeys(value: unknown): string[] | undefined {
  if (typeof value === 'string') return value.isWellFormed() ? undefined : []
  if (typeof value !== 'object' || value === null) return undefined
  // A parsed JSON value: its own keys only, in Object.keys' order, indexes for an array.
  for (const key in value) {
    if (!key.isWellFormed()) return []
    const keys = illFormedKeys((value as Record<string, unknown>)[key])
    if (keys !== undefined) {
      keys.unshift(key)
      return keys
    }
  }
  return undefined
}

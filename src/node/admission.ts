// Admission of a signed action (docs/protocol.md#envelope, through docs/protocol.md#nonces):
// schema, signature, signer, auth channel and role, nonce window. A refusal is a JSON-RPC error,
// puts nothing in a block and consumes no nonce.
import {
  actorAuthorized, type ChainState, decodePlaceOrder, type EnvelopeInput, isRejection, LIMITS, lowestUnusedNonce, nonceUsable, resolveActor,
} from '../chain/index.ts'
import { atTheEdge } from './edge-envelope.ts'
import { orderShapeError } from './order-admission.ts'
import { ACTION_KIND_BY_NAME, type ActionKindSpec, type PlaceOrderPayload } from '../wire/actions.ts'
import { ActionParamsSchema } from '../wire/envelope.ts'
import { RPC, rpcError, type RpcError } from '../wire/rpc-errors.ts'
import { l1Digest, parseSignature, recoverAddress, sourceForNetwork, txHash, userSignedDigest } from '../wire/signing.ts'
import { compileValidator } from '../wire/validate.ts'

/** An admitted envelope, ready for the mempool. */
export interface AdmittedEnvelope {
  readonly signer: string
  readonly nonce: number
  /** The action exactly as signed (stored, and hashed into the tx hash). */
  readonly action: Record<string, unknown>
  /** The envelope as the chain takes it, its payload's decimals packed at admission
   * (edge-envelope.ts atTheEdge), so block production does not pay for the parsing. */
  readonly input: EnvelopeInput
  readonly kind: string
  readonly txHash: string
  readonly signature: { r: string; s: string; v: number }
}

export type Admission = { readonly ok: true; readonly envelope: AdmittedEnvelope } | { readonly ok: false; readonly error: RpcError }

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

const invalid = (field: string, message: string) => ({ ok: false as const, error: rpcError(RPC.invalidParams, 'INVALID_PARAMS', `${field}: ${message}`, { field }) })

/** Whether a nonce is already waiting in the mempool for a signer. */
export type PendingNonces = (signer: string, nonce: number) => boolean

/** Checks a /action params object against the current state. Pure apart from reading state. */
export function admit(state: ChainState, params: unknown, isPending: PendingNonces): Admission {
  const shape = paramsValidator.validate(params, 'params')
  if (!shape.ok) return invalid(shape.field, shape.message)
  const p = params as { action: Record<string, unknown>; nonce: number; signature: { r: string; s: string; v: number } }
  const keys = Object.keys(p.action)
  if (keys.length !== 1) return invalid('params.action', `must have exactly one key, the action kind; got ${keys.length}`)
  const kindName = keys[0]!
  const kind = ACTION_KIND_BY_NAME.get(kindName)
  if (kind === undefined) return invalid('params.action', `unknown action kind ${JSON.stringify(kindName).slice(0, 80)}`)
  const payload = p.action[kindName]
  const checked = payloadValidator(kind).validate(payload, `params.action.${kindName}`)
  if (!checked.ok) return invalid(checked.field, checked.message)
  const illFormed = illFormedStringField(payload, `params.action.${kindName}`)
  if (illFormed !== undefined) return invalid(illFormed, 'contains a lone UTF-16 surrogate, which has no UTF-8 encoding to sign')
  const crossField = crossFieldCheck(kindName, payload as Record<string, unknown>, p.nonce, state)
  if (crossField !== undefined) return crossField

  const sig = parseSignature(p.signature)
  if (!sig.ok) return { ok: false, error: rpcError(RPC.badSignature, sig.reason, sig.message) }
  const digest = kind.auth === 'user_signed_master'
    ? userSignedDigest(kindName, kind.typedFields ?? [], payload as Record<string, unknown>, BigInt((payload as { signature_chain_id: string }).signature_chain_id))
    : l1Digest(p.action, p.nonce, sourceForNetwork(state.params.network))
  const signer = recoverAddress(digest, sig.r, sig.s, sig.recovery)
  if (signer === undefined) return { ok: false, error: rpcError(RPC.badSignature, 'BAD_SIGNATURE', 'the signature does not recover to a public key') }
  const actor = resolveActor(state, signer)
  if (actor === undefined) {
    return { ok: false, error: rpcError(RPC.badSignature, 'UNKNOWN_SIGNER', `the signature recovers to ${signer}, which is neither an account nor an agent on ${state.params.network}; check the signing hash or fund the account`, { recovered_address: signer }) }
  }
  if (!actorAuthorized(actor, kind.auth, kind.role)) {
    const need = kind.auth === 'master_or_agent_with_role' ? `the ${kind.role} role (master or agent)` : kind.auth === 'master' ? `a master key with the ${kind.role} role` : 'the master key'
    return { ok: false, error: rpcError(RPC.unauthorized, 'UNAUTHORIZED', `${signer} may not send ${kindName}: it needs ${need}`, { signer, auth: kind.auth, role: kind.role }) }
  }
  if (!nonceUsable(state, signer, p.nonce) || isPending(signer, p.nonce)) {
    const lowest = lowestUnusedNonce(state, signer)
    return { ok: false, error: rpcError(RPC.nonceReplay, 'NONCE_REPLAY', `nonce ${p.nonce} of ${signer} is used or outside [${lowest}, ${lowest + LIMITS.nonceWindow})`, { signer, nonce: p.nonce, lowest_unused: lowest, window: LIMITS.nonceWindow }) }
  }
  const hash = txHash(digest, sig.r, sig.s, sig.v)
  const input = atTheEdge({ signer, nonce: p.nonce, action: p.action, txHash: hash }, kindName)
  return { ok: true, envelope: { signer, nonce: p.nonce, action: p.action, input, kind: kindName, txHash: hash, signature: p.signature } }
}

/**
 * The first string field (path) holding a lone UTF-16 surrogate: JSON can carry one (`"\ud800"`)
 * but neither msgpack nor EIP-712 can hash it, so it is refused here rather than failing the hash.
 */
function illFormedStringField(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return value.isWellFormed() ? undefined : path
  if (typeof value !== 'object' || value === null) return undefined
  for (const [key, inner] of Object.entries(value)) {
    if (!key.isWellFormed()) return path
    const bad = illFormedStringField(inner, `${path}.${key}`)
    if (bad !== undefined) return bad
  }
  return undefined
}

/** Checks that a schema cannot express; undefined when fine. */
function crossFieldCheck(kind: string, payload: Record<string, unknown>, nonce: number, state: ChainState) {
  // Every user-signed kind carries the network and the envelope nonce inside its typed data.
  if (ACTION_KIND_BY_NAME.get(kind)?.auth === 'user_signed_master') {
    if (payload.network !== state.params.network) {
      return { ok: false as const, error: rpcError(RPC.invalidParams, 'WRONG_NETWORK', `params.action.${kind}.network: signed for network ${JSON.stringify(payload.network)}, this chain is ${state.params.network}`, { field: `params.action.${kind}.network` }) }
    }
    if (payload.nonce !== nonce) return invalid(`params.action.${kind}.nonce`, `must equal the envelope nonce ${nonce}`)
  }
  switch (kind) {
    case 'PlaceOrder': {
      // Precision is refused here, where no nonce is lost; an unknown market is the chain's
      // MarketNotFound (docs/errors.md#reject-reasons), so it passes.
      const decoded = decodePlaceOrder(state, payload as PlaceOrderPayload)
      if (isRejection(decoded) && decoded.reason === 'InvalidPrice') return invalid('params.action.PlaceOrder.price', decoded.message)
      if (isRejection(decoded) && decoded.reason === 'InvalidQuantity') return invalid('params.action.PlaceOrder.qty', decoded.message)
      return undefined
    }
    case 'CancelOrder':
      if ((payload.order_id === undefined) === (payload.client_order_id === undefined)) return invalid('params.action.CancelOrder', 'give exactly one of order_id and client_order_id')
      return undefined
    case 'BatchPlaceOrder':
    case 'BatchModify':
    case 'MassCancel': {
      const bad = orderShapeError(kind, payload, state)
      return bad === undefined ? undefined : invalid(bad.field, bad.message)
    }
    default:
      return undefined
  }
}

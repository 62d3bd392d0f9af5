// Admission of a signed action (docs/protocol.md#envelope, through docs/protocol.md#nonces):
// schema, signature, signer, auth channel and role, nonce window. A refusal is a JSON-RPC error,
// puts nothing in a block and consumes no nonce. The stateless part (schema, signature recovery,
// hashing, packing) is admission-prepare.ts, run inline or on an admission thread; the stateful part
// (admitPrepared) runs on the block thread.
import {
  actorAuthorized,
  type ChainState,
  decodePlaceOrder,
  type EnvelopeInput,
  isRejection,
  LIMITS,
  lowestUnusedNonce,
  nonceUsable,
  resolveActor,
} from '../chain/index.ts'
import { ACTION_KIND_BY_NAME, type PlaceOrderPayload } from '../wire/actions.ts'
import { RPC, type RpcError, rpcError } from '../wire/rpc-errors.ts'
import { invalidParams as invalid, type PreparedAction, prepareAdmission } from './admission-prepare.ts'
import { orderShapeError } from './order-admission.ts'

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
  /** The action's and the signature's JSON, as stored (made by the stateless part). */
  readonly actionJson: string
  readonly signatureJson: string
}

export type Admission = { readonly ok: true; readonly envelope: AdmittedEnvelope } | { readonly ok: false; readonly error: RpcError }

/** Whether a nonce is already waiting in the mempool for a signer. */
export type PendingNonces = (signer: string, nonce: number) => boolean

/** Checks a /action params object against the current state. Pure apart from reading state. */
export function admit(state: ChainState, params: unknown, isPending: PendingNonces): Admission {
  return admitPrepared(state, prepareAdmission(params, state.params.network), isPending)
}

/**
 * The stateful part of admission, on a prepared action (admission-prepare.ts): the checks that read
 * state, then the signature's outcome, the signer, its role and its nonce, in that order, so a
 * request gets the same refusal whether it was prepared inline or on an admission thread.
 */
export function admitPrepared(state: ChainState, prepared: PreparedAction, isPending: PendingNonces): Admission {
  if (!prepared.ok) return prepared
  const { kind: kindName, nonce, action } = prepared
  const kind = ACTION_KIND_BY_NAME.get(kindName)!
  const crossField = crossFieldCheck(kindName, action[kindName] as Record<string, unknown>, nonce, state)
  if (crossField !== undefined) return crossField
  const recovered = prepared.recovered
  if (!recovered.ok) return recovered
  const signer = recovered.signer
  const actor = resolveActor(state, signer)
  if (actor === undefined) {
    return {
      ok: false,
      error: rpcError(
        RPC.badSignature,
        'UNKNOWN_SIGNER',
        `the signature recovers to ${signer}, which is neither an account nor an agent on ${state.params.network}; check the signing hash or fund the account`,
        { recovered_address: signer },
      ),
    }
  }
  if (!actorAuthorized(actor, kind.auth, kind.role)) {
    const need =
      kind.auth === 'master_or_agent_with_role'
        ? `the ${kind.role} role (master or agent)`
        : kind.auth === 'master'
          ? `a master key with the ${kind.role} role`
          : 'the master key'
    return {
      ok: false,
      error: rpcError(RPC.unauthorized, 'UNAUTHORIZED', `${signer} may not send ${kindName}: it needs ${need}`, {
        signer,
        auth: kind.auth,
        role: kind.role,
      }),
    }
  }
  if (!nonceUsable(state, signer, nonce) || isPending(signer, nonce)) {
    const lowest = lowestUnusedNonce(state, signer)
    return {
      ok: false,
      error: rpcError(
        RPC.nonceReplay,
        'NONCE_REPLAY',
        `nonce ${nonce} of ${signer} is used or outside [${lowest}, ${lowest + LIMITS.nonceWindow})`,
        { signer, nonce, lowest_unused: lowest, window: LIMITS.nonceWindow },
      ),
    }
  }
  return {
    ok: true,
    envelope: {
      signer,
      nonce,
      action,
      actionJson: prepared.actionJson,
      signatureJson: prepared.signatureJson,
      input: recovered.input,
      kind: kindName,
      txHash: recovered.txHash,
    },
  }
}

/** Checks that a schema cannot express; undefined when fine. */
function crossFieldCheck(kind: string, payload: Record<string, unknown>, nonce: number, state: ChainState) {
  // Every user-signed kind carries the network and the envelope nonce inside its typed data.
  if (ACTION_KIND_BY_NAME.get(kind)?.auth === 'user_signed_master') {
    if (payload.network !== state.params.network) {
      return {
        ok: false as const,
        error: rpcError(
          RPC.invalidParams,
          'WRONG_NETWORK',
          `params.action.${kind}.network: signed for network ${JSON.stringify(payload.network)}, this chain is ${state.params.network}`,
          { field: `params.action.${kind}.network` },
        ),
      }
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
      if ((payload.order_id === undefined) === (payload.client_order_id === undefined))
        return invalid('params.action.CancelOrder', 'give exactly one of order_id and client_order_id')
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

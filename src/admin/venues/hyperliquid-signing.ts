// Hyperliquid's L1 action signing and the wire shapes of the two actions the adapter sends. The
// scheme is the one our own chain uses for L1 actions (docs/protocol.md#l1-actions), so this file
// only reuses src/wire/signing.ts: connection id = keccak(msgpack(action) ‖ u64be(nonce) ‖ 0x00)
// (no vault address), signed as the "phantom agent" Agent{source, connectionId} in the EIP-712
// domain {name "Exchange", version "1", chainId 1337, verifyingContract 0x0…0}, source "a" on
// mainnet and "b" on testnet. The msgpack bytes depend on key order, so every action is built
// here with its keys in the order of Hyperliquid's Python SDK (order_request_to_order_wire,
// order_wires_to_order_action, bulk_cancel_by_cloid).
import { l1Digest, parseSignature, recoverAddress, signDigest, type WireSignature } from '../../wire/signing.ts'
import type { VenueTif } from './venue.ts'

export type HyperliquidNetwork = 'mainnet' | 'testnet'

/** One order as the `order` action carries it (a asset, b isBuy, p price, s size, r reduceOnly, t type, c cloid). */
export interface OrderWire {
  readonly a: number
  readonly b: boolean
  readonly p: string
  readonly s: string
  readonly r: boolean
  readonly t: { readonly limit: { readonly tif: VenueTif } }
  readonly c?: string
}

export interface OrderAction {
  readonly type: 'order'
  readonly orders: readonly OrderWire[]
  readonly grouping: 'na'
}

export interface CancelByCloidAction {
  readonly type: 'cancelByCloid'
  readonly cancels: readonly { readonly asset: number; readonly cloid: string }[]
}

export type HyperliquidAction = OrderAction | CancelByCloidAction

/** A limit order wire in the SDK's key order; `p` and `s` must already be in wire form (numbers.ts). */
export function orderWire(o: {
  asset: number
  isBuy: boolean
  px: string
  sz: string
  reduceOnly: boolean
  tif: VenueTif
  cloid?: string | undefined
}): OrderWire {
  const wire: { -readonly [K in keyof OrderWire]: OrderWire[K] } = {
    a: o.asset,
    b: o.isBuy,
    p: o.px,
    s: o.sz,
    r: o.reduceOnly,
    t: { limit: { tif: o.tif } },
  }
  if (o.cloid !== undefined) wire.c = o.cloid
  return wire
}

export function orderAction(orders: readonly OrderWire[]): OrderAction {
  return { type: 'order', orders, grouping: 'na' }
}

export function cancelByCloidAction(cancels: readonly { asset: number; cloid: string }[]): CancelByCloidAction {
  return { type: 'cancelByCloid', cancels: cancels.map((c) => ({ asset: c.asset, cloid: c.cloid })) }
}

const sourceOf = (network: HyperliquidNetwork): 'a' | 'b' => (network === 'mainnet' ? 'a' : 'b')

/** Signs an L1 action for the network with a private key (0x + 64 hex or 32 bytes): r, s as 0x + 64 hex, v 27/28. */
export function signL1Action(privateKey: string | Uint8Array, action: unknown, nonce: number, network: HyperliquidNetwork): WireSignature {
  return signDigest(privateKey, l1Digest(action, nonce, sourceOf(network)))
}

/**
 * The address that signed `action` with `nonce` on `network`, as Hyperliquid recovers it (the
 * signer is the user); undefined for a malformed or high-s signature.
 */
export function recoverL1Signer(action: unknown, nonce: number, signature: WireSignature, network: HyperliquidNetwork): string | undefined {
  const parsed = parseSignature(signature)
  if (!parsed.ok) return undefined
  return recoverAddress(l1Digest(action, nonce, sourceOf(network)), parsed.r, parsed.s, parsed.recovery)
}

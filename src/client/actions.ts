// Typed action builders. Field order is the signed order, so builders fix it (PROTOCOL §3).
import type { ActivateMarketPayload, CancelOrderPayload, CreateMarketPayload, PlaceOrderPayload } from '../wire/actions.ts'

export function placeOrder(p: PlaceOrderPayload) {
  const payload: Record<string, unknown> = {
    market_id: p.market_id, side: p.side, price: p.price, qty: p.qty, tif: p.tif, reduce_only: p.reduce_only,
  }
  if (p.client_order_id !== undefined) payload.client_order_id = p.client_order_id
  return { PlaceOrder: payload }
}

export function cancelOrder(p: CancelOrderPayload) {
  const payload: Record<string, unknown> = { market_id: p.market_id }
  if (p.order_id !== undefined) payload.order_id = p.order_id
  if (p.client_order_id !== undefined) payload.client_order_id = p.client_order_id
  return { CancelOrder: payload }
}

/** RegisterAgent is user-signed: it carries network, nonce and the EIP-712 chain id (hex). */
export function registerAgent(p: { network: string; agent: string; role: string; name: string; nonce: number; signatureChainId?: number }) {
  return {
    RegisterAgent: {
      network: p.network, agent: p.agent.toLowerCase(), role: p.role, name: p.name, nonce: p.nonce,
      signature_chain_id: `0x${(p.signatureChainId ?? 1337).toString(16)}`,
    },
  }
}

export function createMarket(p: CreateMarketPayload) {
  return { CreateMarket: { ...p } }
}

export function activateMarket(p: ActivateMarketPayload) {
  return { ActivateMarket: { ...p } }
}

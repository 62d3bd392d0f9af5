// /action rate limits (docs/limits.md#action-rate-limits) on a node with the default limits: 20/s
// per signer, 50/s per IP. A refused action consumes no nonce.
import { expect, test } from 'bun:test'
import { cancelOrder } from '../../src/client/actions.ts'
import { RpcCallError } from '../../src/client/rpc-client.ts'
import { Signer } from '../../src/client/signer.ts'
import { startDevNodeForFile } from '../support/dev-node.ts'
import { DEV_KEYS } from '../support/node-process.ts'

const { rpc } = await startDevNodeForFile({ specRateLimits: true, blockTimeMs: 100 })

const nonceOf = async (address: string) => (await rpc.query<{ nonce: number }>('getAccount', { address })).data.nonce

async function send(signer: Signer, nonce: number) {
  try {
    return (
      await rpc.action<{ status: string }>(signer.sign(cancelOrder({ market_id: 1, order_id: 900_000 + nonce }), nonce, 'dev').params)
    ).status
  } catch (err) {
    if (err instanceof RpcCallError) return `${err.error.code} ${err.reason}`
    throw err
  }
}

test('40 actions at once from one signer: about 20 pass, the rest get -32000 and keep their nonces', async () => {
  const signer = new Signer(DEV_KEYS[3])
  const base = await nonceOf(signer.address)
  const outcomes = await Promise.all(Array.from({ length: 40 }, (_, i) => send(signer, base + i)))
  const limited = outcomes.filter((o) => o === '-32000 RATE_LIMITED').length
  // A bucket holds one second (20); what refills while the burst is served may pass too.
  expect(limited).toBeGreaterThanOrEqual(1)
  expect(outcomes.filter((o) => o === 'kept-reject').length + limited).toBe(40)
  // The refused nonces were not consumed: the floor stops at the first of them.
  const firstRefused = outcomes.findIndex((o) => o !== 'kept-reject')
  expect(await nonceOf(signer.address)).toBe(base + firstRefused)
  await Bun.sleep(1_100)
  expect(await send(signer, base + firstRefused)).toBe('kept-reject')
})

test('more than 50 actions at once from one IP are limited across signers', async () => {
  await Bun.sleep(1_100)
  const signers = DEV_KEYS.slice(0, 10).map((k) => new Signer(k))
  const bases = await Promise.all(signers.map((s) => nonceOf(s.address)))
  // 10 signers x 15 = 150 requests: under 20 per signer, three seconds' worth for the IP.
  const outcomes = await Promise.all(signers.flatMap((s, si) => Array.from({ length: 15 }, (_, i) => sendRaw(s, bases[si]! + i))))
  expect(outcomes.filter((o) => o.includes('/action requests per second')).length).toBeGreaterThanOrEqual(1)
})

/** Like send, but returns the refusal's message so IP and signer limits can be told apart. */
async function sendRaw(signer: Signer, nonce: number): Promise<string> {
  try {
    return (
      await rpc.action<{ status: string }>(signer.sign(cancelOrder({ market_id: 1, order_id: 900_000 + nonce }), nonce, 'dev').params)
    ).status
  } catch (err) {
    if (err instanceof RpcCallError) return err.message
    throw err
  }
}

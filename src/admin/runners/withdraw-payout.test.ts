// The treasury interface's client side (docs/admin.md#treasury-interface): the idempotency key, the
// signed request exactly as sent, and how answers are read (only an explicit paid or failed is final).
import { afterAll, describe, expect, test } from 'bun:test'
import { Signer } from '../../client/signer.ts'
import { recoverPersonalSign } from '../../wire/signing.ts'
import { HttpWithdrawalPayout, idempotencyKey, parseTreasuryAnswer, payoutRequest } from './withdraw-payout.ts'

const CHAIN = { network: 'dev', chain: `0x${'ab'.repeat(32)}` }
const W = {
  withdrawal_id: 9,
  account: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
  destination: '0x000000000000000000000000000000000000dead',
  amount: '1.5',
}
const signer = new Signer(`0x${'11'.repeat(32)}`)

const seen: { method: string; path: string; headers: Headers; body: string }[] = []
let reply: () => Response = () => Response.json({ status: 'paid', external_tx: '0xabc' })
const server = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  async fetch(req) {
    seen.push({ method: req.method, path: new URL(req.url).pathname, headers: req.headers, body: await req.text() })
    return reply()
  },
})
afterAll(() => server.stop(true))
const payout = new HttpWithdrawalPayout(`http://127.0.0.1:${server.port}/pay`, 300)

describe('the payout request', () => {
  test('the idempotency key names the network, the chain and the withdrawal, never the signer', () => {
    expect(idempotencyKey(CHAIN, 9)).toBe(`perpd:dev:${'ab'.repeat(16)}:9`)
    expect(idempotencyKey({ ...CHAIN, chain: `0x${'cd'.repeat(32)}` }, 9)).not.toBe(idempotencyKey(CHAIN, 9))
    expect(payoutRequest(CHAIN, W)).toEqual({ idempotency_key: idempotencyKey(CHAIN, 9), network: 'dev', chain: CHAIN.chain, ...W })
  })

  test('POST carries the key and an EIP-191 signature of the exact body by the signer; GET asks by key', async () => {
    const request = payoutRequest(CHAIN, W)
    expect(await payout.pay(request, signer, new AbortController().signal)).toEqual({ status: 'paid', externalTx: '0xabc' })
    const post = seen.at(-1)!
    expect(post.method).toBe('POST')
    expect(post.body).toBe(JSON.stringify(request))
    expect(post.headers.get('idempotency-key')).toBe(request.idempotency_key)
    expect(post.headers.get('x-perpd-signer')).toBe(signer.address)
    expect(recoverPersonalSign(new TextEncoder().encode(post.body), post.headers.get('x-perpd-signature')!)).toBe(signer.address)
    reply = () => Response.json({ status: 'unknown' })
    expect(await payout.status(request.idempotency_key, new AbortController().signal)).toEqual({ status: 'unknown' })
    expect(seen.at(-1)).toMatchObject({ method: 'GET', path: `/pay/${encodeURIComponent(request.idempotency_key)}` })
  })

  test('a reply that does not come in time is no answer, not a failure', async () => {
    reply = () => new Response(new ReadableStream({ start() {} }), { status: 200 })
    const r = await payout.pay(payoutRequest(CHAIN, W), signer, new AbortController().signal)
    expect(r.status).toBe('no_answer')
  })
})

describe('treasury answers', () => {
  test.each([
    [200, '{"status":"paid","external_tx":"0xfeed"}', true, { status: 'paid', externalTx: '0xfeed' }],
    [200, '{"status":"paid","external_tx":"no spaces allowed"}', true, { status: 'paid', externalTx: null }],
    [200, '{"status":"failed","reason":"bounced"}', true, { status: 'failed', reason: 'bounced' }],
    [202, '{"status":"pending"}', true, { status: 'pending' }],
    [200, '{"status":"unknown"}', true, { status: 'unknown' }],
  ] as const)('%d %s is final or known', (code, body, allowUnknown, expected) => {
    expect(parseTreasuryAnswer(code, body, allowUnknown)).toEqual(expected as never)
  })

  test.each([
    [503, '{"status":"failed"}'],
    [500, ''],
    [200, 'paid'],
    [200, '{"external_tx":"0xfeed"}'],
    [200, '{"status":"unknown"}'],
    [200, 'null'],
    [404, '{"status":"paid"}'],
  ] as const)('%d %s is no answer (the payout may or may not have happened)', (code, body) => {
    expect(parseTreasuryAnswer(code, body, false).status).toBe('no_answer')
  })
})

// Chain-node conformance on a real dev node (no dev quoter: XAU-USD halts for staleness in block 1):
// batch items answering on their own, JSON-RPC notifications, block digests with and without 0x,
// envelope_idx of the block's own events, master_only of getActionsMeta, and the signer the audit
// log names for the chain's own events (docs/rpc.md, docs/history-api.md).
import { describe, expect, test } from 'bun:test'
import { cancelOrder, haltMarket, registerAgent, resumeMarket, submitOracleQuote } from '../../src/client/actions.ts'
import { PerpdClient } from '../../src/client/perpd-client.ts'
import { Signer } from '../../src/client/signer.ts'
import { BLOCK_PRODUCER_SIGNER } from '../../src/wire/views.ts'
import { accepted, refusal, startDevNodeForFile } from '../support/dev-node.ts'
import { DEV_KEYS } from '../support/node-process.ts'
import { until } from '../support/poll.ts'

const { node, rpc, client } = await startDevNodeForFile({ blockTimeMs: 100 })
const admin = client(0)
const quoter = client(7)
const ADMIN = admin.address

const request = (id: number | null, method: string, params: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id, method, params })
const notification = (method: string, params: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', method, params })

/** POSTs a JSON body; the reply's status, raw text and parsed JSON (when there is a body). */
async function post(path: string, body: unknown) {
  const res = await fetch(`${node.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  const text = await res.text()
  return { status: res.status, text, json: (text === '' ? undefined : JSON.parse(text)) as any }
}

interface EventRow {
  height: number
  seq: number
  envelope_idx: number
  sub_kind: string
}
interface Header {
  height: number
  digest: string
  envelope_count: number
}

/** A REST read of the history index, once it has the data (404 or 503 while it catches up). */
async function rest<T>(path: string, timeoutMs = 30_000): Promise<T> {
  return until(
    `GET ${path}`,
    async () => {
      const res = await fetch(`${node.url}${path}`)
      return res.status === 200 ? ((await res.json()) as { data: T }).data : undefined
    },
    (v) => v !== undefined,
    timeoutMs,
  ) as Promise<T>
}

describe('JSON-RPC batches and notifications', () => {
  test('a batch item with offset above 1000 gets its own -32602 error; the others their results; HTTP 200', async () => {
    const r = await post('/api/v1/query', [
      request(1, 'getOrderFills', { order_id: 1, offset: 1001 }),
      request(2, 'getHealth'),
      request(3, 'getUserFills', { address: ADMIN, offset: 5000 }),
    ])
    expect(r.status).toBe(200)
    expect(r.json).toHaveLength(3)
    expect(r.json[0]).toMatchObject({
      id: 1,
      error: { code: -32602, data: { reason: 'OFFSET_TOO_DEEP', field: 'params.offset', max: 1000 } },
    })
    expect(r.json[0].error.message).toContain('1000')
    expect(r.json[1]).toMatchObject({ id: 2, result: { data: { status: 'ok' } } })
    expect(r.json[2]).toMatchObject({ id: 3, error: { code: -32602, data: { reason: 'OFFSET_TOO_DEEP' } } })
    // The same request alone keeps HTTP 400.
    const single = await post('/api/v1/query', request(1, 'getOrderFills', { order_id: 1, offset: 1001 }))
    expect(single.status).toBe(400)
    expect(single.json).toMatchObject({ id: 1, error: { code: -32602, data: { reason: 'OFFSET_TOO_DEEP', max: 1000 } } })
  })

  test('notifications get no reply: alone or all-notification batches are HTTP 204 without a body', async () => {
    const one = await post('/api/v1/query', notification('getHealth'))
    expect({ status: one.status, text: one.text }).toEqual({ status: 204, text: '' })
    const two = await post('/api/v1/query', [notification('getHealth'), notification('getNothing')])
    expect({ status: two.status, text: two.text }).toEqual({ status: 204, text: '' })
    // Mixed: only the requests are answered, in order.
    const mixed = await post('/api/v1/query', [
      notification('getHealth'),
      request(5, 'getHealth'),
      notification('getMarket', { symbol: 'NOSUCH' }),
      request(6, 'getNothing'),
    ])
    expect(mixed.status).toBe(200)
    expect(mixed.json.map((r: { id: unknown }) => r.id)).toEqual([5, 6])
    expect(mixed.json[1]).toMatchObject({ error: { code: -32601 } })
    // id null is a request, not a notification; an object that is no request gets its error with id null.
    expect((await post('/api/v1/query', request(null, 'getHealth'))).json).toMatchObject({ id: null, result: { data: { status: 'ok' } } })
    const malformed = await post('/api/v1/query', { jsonrpc: '1.0', method: 'getHealth' })
    expect(malformed.json).toMatchObject({ id: null, error: { code: -32600 } })
  })

  test('an /action notification is run and answered HTTP 204 without a body', async () => {
    const signer = new Signer(DEV_KEYS[4])
    const nonceOf = async () => (await rpc.query<{ nonce: number }>('getAccount', { address: signer.address })).data.nonce
    const nonce = await nonceOf()
    const { params } = signer.sign(cancelOrder({ market_id: 1, order_id: 777_777 }), nonce, 'dev')
    const r = await post('/api/v1/action', { jsonrpc: '2.0', method: 'action', params })
    expect({ status: r.status, text: r.text }).toEqual({ status: 204, text: '' })
    // It reached a block (a kept-reject consumes its nonce).
    expect(await nonceOf()).toBe(nonce + 1)
  })
})

describe('blocks and events', () => {
  test('GET /api/v1/blocks/{digest} takes the digest with or without 0x, in any case', async () => {
    const header = await rest<Header>('/api/v1/blocks/1')
    const bare = header.digest.slice(2)
    for (const id of [header.digest, bare, bare.toUpperCase(), `0x${bare.toUpperCase()}`]) {
      const res = await fetch(`${node.url}/api/v1/blocks/${id}`)
      expect(`${id} ${res.status}`).toBe(`${id} 200`)
      expect(((await res.json()) as { data: Header }).data).toEqual(header)
    }
    expect((await fetch(`${node.url}/api/v1/blocks/${bare.slice(1)}`)).status).toBe(404)
  })

  test("an event the block raised itself carries the block's envelope_count as envelope_idx, after its envelopes' events", async () => {
    // XAU-USD is Active at genesis; block 1 finds no quote and halts it: an end-of-block event.
    const first = await rest<EventRow[]>('/api/v1/blocks/1/events')
    const header1 = await rest<Header>('/api/v1/blocks/1')
    const halt1 = first.find((e) => e.sub_kind === 'MarketHaltedQuoteStale')!
    expect(halt1.envelope_idx).toBe(header1.envelope_count)

    // A block with envelopes and a quote-stale halt: a quote 9.5 s old resumes XAU-USD (its
    // max_quote_lag_ms is 10 s) and the halt follows in a block about half a second later, while
    // three accounts keep sending actions so that blocks carry envelopes. Tried until a halt lands
    // in a block with envelopes.
    let busy = true
    const senders = [2, 3, 5].map((i) => client(i))
    const traffic = Promise.all(
      senders.map(async (c, k) => {
        for (let i = 0; busy; i++) await c.send(cancelOrder({ market_id: 1, order_id: 800_000 + k * 100_000 + i }))
      }),
    )
    let found: { events: EventRow[]; header: Header; halt: EventRow } | undefined
    try {
      for (let attempt = 0; attempt < 8 && found === undefined; attempt++) {
        const q = accepted(
          await quoter.send(
            submitOracleQuote([
              { symbol: 'XAU-USD', bid_price: '2399', ask_price: '2401', mark_price: '2400', source_ts_ms: Date.now() - 9_500 },
            ]),
          ),
        )
        const halt = await until(
          'the quote-stale halt after the quote',
          async () => {
            const log = (
              await rpc.query<{ block_height: number; event_seq: number; event: { sub_kind: string } }[]>('getAdminAuditLog', {
                signer: BLOCK_PRODUCER_SIGNER,
                limit: 5,
              })
            ).data
            return log.find((row) => row.event.sub_kind === 'MarketHaltedQuoteStale' && row.block_height > q.height)
          },
          (row) => row !== undefined,
          30_000,
        )
        const header = await rest<Header>(`/api/v1/blocks/${halt!.block_height}`)
        if (header.envelope_count === 0) continue
        const events = await rest<EventRow[]>(`/api/v1/blocks/${header.height}/events`)
        found = { events, header, halt: events.find((e) => e.seq === halt!.event_seq)! }
      }
    } finally {
      busy = false
      await traffic
    }
    expect(found).toBeDefined()
    const { events, header, halt } = found!
    expect(halt).toMatchObject({ sub_kind: 'MarketHaltedQuoteStale', envelope_idx: header.envelope_count })
    for (const e of events) {
      expect(typeof e.envelope_idx).toBe('number')
      expect(e.envelope_idx).toBeLessThanOrEqual(header.envelope_count)
      if (e.envelope_idx < header.envelope_count) expect(e.seq).toBeLessThan(halt.seq)
    }
  }, 180_000)
})

describe('actions meta and the admin audit log', () => {
  test('master_only is true for every kind an agent cannot send; an Admin agent is refused an Admin kind', async () => {
    const meta = (
      await rpc.query<{ actions: { name: string; auth: string; role: string | null; master_only: boolean }[] }>('getActionsMeta')
    ).data
    for (const a of meta.actions) expect(`${a.name} ${a.master_only}`).toBe(`${a.name} ${a.auth !== 'master_or_agent_with_role'}`)
    expect(meta.actions.find((a) => a.name === 'HaltMarket')).toMatchObject({ auth: 'master', role: 'Admin', master_only: true })
    // The Admin delegates its Admin role to an agent; the agent still may not send HaltMarket.
    const agent = new PerpdClient({ url: node.url, privateKey: `0x${'5a'.repeat(32)}` })
    accepted(await admin.send((nonce, network) => registerAgent({ network, agent: agent.address, role: 'Admin', name: 'ops-bot', nonce })))
    const refused = await refusal(agent.send(haltMarket({ symbol: 'SOL-USD' })))
    expect(refused.reason).toBe('UNAUTHORIZED')
  })

  test("audit rows of the chain's own events are signed by the block producer's marker; Admin actions by the Admin", async () => {
    accepted(await admin.send(haltMarket({ symbol: 'SOL-USD' })))
    accepted(await admin.send(resumeMarket({ symbol: 'SOL-USD' })))
    type Row = { block_height: number; signer: string; event: { sub_kind: string; envelope_idx: number } }
    const all = (await rpc.query<Row[]>('getAdminAuditLog', { limit: 1000 })).data
    const stale = all.filter((r) => r.event.sub_kind === 'MarketHaltedQuoteStale')
    expect(stale.length).toBeGreaterThan(0)
    for (const r of stale) expect(r.signer).toBe(BLOCK_PRODUCER_SIGNER)
    expect(
      all
        .filter((r) => r.event.sub_kind === 'MarketLifecycleChanged')
        .slice(0, 2)
        .map((r) => r.signer),
    ).toEqual([ADMIN, ADMIN])
    expect(all.every((r) => /^0x[0-9a-f]{40}$/.test(r.signer))).toBe(true)
    // The marker filters to the chain's own events, the Admin's address to its own.
    const own = (await rpc.query<Row[]>('getAdminAuditLog', { signer: BLOCK_PRODUCER_SIGNER, limit: 1000 })).data
    expect(own.length).toBe(all.filter((r) => r.signer === BLOCK_PRODUCER_SIGNER).length)
    const byAdmin = (await rpc.query<Row[]>('getAdminAuditLog', { signer: ADMIN, limit: 1000 })).data
    expect(byAdmin.length).toBeGreaterThan(0)
    expect(byAdmin.every((r) => r.signer === ADMIN)).toBe(true)
  })
})

// The one check of REST parameters (rest-route.ts): the route's schemas convert and check query
// strings, path parameters and JSON bodies, a missing required value is 500 and a malformed one 400
// with the message its schema names, each value is checked when the handler reads it, and a served
// route answers those errors as {error}.
import { describe, expect, test } from 'bun:test'
import { Type } from '@sinclair/typebox'
import { ReadError } from '../../indexer/paging.ts'
import { cursorPaging, PAGING, pageRequest } from './history-params.ts'
import { AddressQuery, CountQuery, EnumQuery, FlagQuery, IntQuery, LenientEnumQuery, Opt, TextQuery } from './query-params.ts'
import { type RouteTable, readInput, serveRoutes } from './rest-route.ts'

/** The status and message readInput's read of `key` throws, or the value it returns. */
function read(run: () => unknown): unknown {
  try {
    return { value: run() }
  } catch (err) {
    if (err instanceof ReadError) return { status: err.status, error: err.message }
    throw err
  }
}

const Query = Type.Object({
  account: AddressQuery('required'),
  market_id: Opt(IntQuery('a market', 4_294_967_295)),
  depth: Opt(CountQuery('a count', 999_999_999)),
  role: Opt(EnumQuery(['inviter', 'invitee'] as const)),
  interval: Opt(LenientEnumQuery(['1m', '1h'] as const, 'lenient')),
  include_total: Opt(FlagQuery('a flag')),
  text: Opt(TextQuery('free text')),
})
const ADDRESS = `0x${'aB'.repeat(20)}`

describe('a query string', () => {
  test('a missing or empty required parameter is 500; an absent optional one is undefined', () => {
    expect(read(() => readInput(Query, {}, 'query').account)).toEqual({ status: 500, error: 'missing required parameter: account' })
    expect(read(() => readInput(Query, { account: '' }, 'query').account)).toEqual({
      status: 500,
      error: 'missing required parameter: account',
    })
    expect(readInput(Query, { account: ADDRESS, market_id: '' }, 'query').market_id).toBeUndefined()
  })

  test('integers are digits within the range; each family keeps its message', () => {
    const q = (raw: Record<string, string>) => readInput(Query, { account: ADDRESS, ...raw }, 'query')
    expect(q({ market_id: '007' }).market_id).toBe(7)
    expect(q({ market_id: '4294967295' }).market_id).toBe(4_294_967_295)
    for (const bad of ['4294967296', '-1', '1.5', '1e3', 'abc', '99999999999999999999'])
      expect(read(() => q({ market_id: bad }).market_id)).toEqual({
        status: 400,
        error: `market_id must be an integer from 0 to 4294967295, got ${bad}`,
      })
    expect(q({ depth: '999999999' }).depth).toBe(999_999_999)
    expect(read(() => q({ depth: '1000000000' }).depth)).toEqual({ status: 400, error: 'depth must be a non-negative integer' })
  })

  test('addresses, enums, lenient enums, flags and text', () => {
    const q = (raw: Record<string, string>) => readInput(Query, { account: ADDRESS, ...raw }, 'query')
    expect(q({}).account).toBe(ADDRESS)
    expect(read(() => q({ account: '0x12' }).account)).toEqual({ status: 400, error: 'account must be a 0x-prefixed 20-byte address' })
    expect(q({ role: 'invitee' }).role).toBe('invitee')
    expect(read(() => q({ role: 'boss' }).role)).toEqual({ status: 400, error: 'role must be one of inviter, invitee' })
    expect(q({ interval: '1h' }).interval).toBe('1h')
    expect(q({ interval: '7m' }).interval).toBeUndefined()
    expect([q({ include_total: 'true' }), q({ include_total: '1' }), q({ include_total: 'yes' })].map((v) => v.include_total)).toEqual([
      true,
      true,
      false,
    ])
    expect(q({ text: '  x ' }).text).toBe('  x ')
  })

  test('a value is checked when read: the handler decides which of two problems answers', () => {
    const q = readInput(Query, { market_id: 'x' }, 'query')
    expect(read(() => q.market_id)).toEqual({ status: 400, error: 'market_id must be an integer from 0 to 4294967295, got x' })
    expect(read(() => q.account)).toEqual({ status: 500, error: 'missing required parameter: account' })
    // Undeclared names are not there.
    expect(Object.keys(readInput(Query, { account: ADDRESS, other: '1' }, 'query'))).not.toContain('other')
  })

  test('history paging: offset above 1000 on a cursor list, limit clamped, a malformed cursor', () => {
    const Paged = Type.Object(cursorPaging(PAGING.fills))
    const page = (raw: Record<string, string>) => pageRequest(readInput(Paged, raw, 'query'), PAGING.fills)
    expect(page({})).toEqual({ offset: 0, limit: 50, cursor: undefined, includeTotal: false })
    expect(page({ offset: '1000', limit: '5000', cursor: '1.2.3', include_total: '1' })).toEqual({
      offset: 1000,
      limit: 200,
      cursor: [1, 2, 3],
      includeTotal: true,
    })
    expect(read(() => page({ offset: '1001' }))).toEqual({ status: 400, error: 'offset 1001 is above 1000; page deeper with cursor' })
    expect(read(() => page({ offset: '-1' }))).toEqual({
      status: 400,
      error: 'offset must be an integer from 0 to 9007199254740991, got -1',
    })
    expect(read(() => page({ cursor: '1.2' }))).toEqual({ status: 400, error: 'cursor 1.2 is not a cursor of this endpoint' })
  })
})

describe('path parameters and JSON bodies', () => {
  test('a path parameter is never absent: an empty one is checked like any value', () => {
    const Params = Type.Object({ id: Type.String({ pattern: '^\\d+$', invalid: (_n: string, sent: string) => `bad id '${sent}'` }) })
    expect(readInput(Params, { id: '12' }, 'params').id).toBe('12')
    expect(read(() => readInput(Params, { id: '' }, 'params').id)).toEqual({ status: 400, error: "bad id ''" })
  })

  test('a JSON body: null is absent, an empty string only where a string is declared, nested names are prefixed', () => {
    const Body = Type.Object({
      req: Type.Object({ coin: Type.String(), startTime: Opt(Type.Integer({ minimum: 0, invalid: (n: string) => `${n} bad` })) }),
    })
    const req = (value: unknown) => readInput(Body, { req: value }, 'json').req as { coin: string; startTime?: number }
    expect(req({ coin: 'BTC', startTime: null }).startTime).toBeUndefined()
    expect(req({ coin: 'BTC', startTime: 5 }).startTime).toBe(5)
    expect(read(() => req({ coin: 'BTC', startTime: '' }).startTime)).toEqual({ status: 400, error: 'req.startTime bad' })
    expect(read(() => req({ coin: 'BTC', startTime: '5' }).startTime)).toEqual({ status: 400, error: 'req.startTime bad' })
    expect(read(() => req({ coin: '' }).coin)).toEqual({ status: 500, error: 'missing required parameter: req.coin' })
    expect(read(() => req({ coin: 5 }).coin)).toEqual({ status: 400, error: 'req.coin: Expected string' })
  })
})

describe('a served route table', () => {
  const TABLE = {
    item: {
      method: 'GET',
      path: '/items/:id',
      summary: 'an item',
      params: Type.Object({ id: Type.String({ pattern: '^\\d+$', invalid: () => 'id must be digits' }) }),
      query: Type.Object({ account: AddressQuery('required'), limit: Opt(IntQuery('rows', 10)) }),
      responses: { '200': { description: 'ok' } },
    },
    echo: { method: 'POST', path: '/echo', summary: 'echoes the body', responses: { '200': { description: 'ok' } } },
  } as const satisfies RouteTable
  const app = serveRoutes(TABLE, {
    item: ({ params, query }) => Response.json({ id: params.id, account: query.account, limit: query.limit ?? null }),
    echo: async ({ request }) => new Response(await request.text()),
  })
  const call = async (path: string, init?: RequestInit) => {
    const res = await app.handle(new Request(`http://local${path}`, init))
    return { status: res.status, body: await res.text() }
  }

  test('the handler gets converted values; a bad one is answered {error} with its status', async () => {
    expect(await call(`/items/4?account=${ADDRESS}&limit=3&other=x`)).toEqual({
      status: 200,
      body: JSON.stringify({ id: '4', account: ADDRESS, limit: 3 }),
    })
    expect(await call(`/items/4?limit=3`)).toEqual({ status: 500, body: JSON.stringify({ error: 'missing required parameter: account' }) })
    expect(await call(`/items/4?account=${ADDRESS}&limit=11`)).toEqual({
      status: 400,
      body: JSON.stringify({ error: 'limit must be an integer from 0 to 10, got 11' }),
    })
    expect(await call(`/items/x?account=${ADDRESS}`)).toEqual({ status: 400, body: JSON.stringify({ error: 'id must be digits' }) })
  })

  test('a body is left for the handler to read', async () => {
    expect(await call('/echo', { method: 'POST', body: '{not json', headers: { 'content-type': 'application/json' } })).toEqual({
      status: 200,
      body: '{not json',
    })
  })
})

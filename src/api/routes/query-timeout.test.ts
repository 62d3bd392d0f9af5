// The /query deadline (docs/limits.md#queries): a method still pending when the deadline passes
// answers -32000 TIMEOUT; a late answer or failure of the abandoned call changes nothing.

import { expect, test } from 'bun:test'
import { Type } from '@sinclair/typebox'
import { compileMethods, method, type QueryContext } from '../methods/registry.ts'
import { runQuery } from './query-routes.ts'

const ctx = { node: { state: { height: 7 }, tipHeight: 7 } } as unknown as QueryContext
const after = <T>(ms: number, value: () => T) =>
  new Promise<T>((resolve, reject) =>
    setTimeout(() => {
      try {
        resolve(value())
      } catch (err) {
        reject(err)
      }
    }, ms),
  )
let lateFailures = 0
const table = compileMethods([
  method({
    name: 'slow',
    description: 'answers after 200 ms',
    params: Type.Object({}),
    result: Type.String(),
    handler: () => after(200, () => ({ data: 'late' })),
  }),
  method({
    name: 'slowFailing',
    description: 'fails after 50 ms',
    params: Type.Object({}),
    result: Type.String(),
    handler: () =>
      after(50, () => {
        lateFailures++
        throw new Error('late failure')
      }),
  }),
  method({
    name: 'quick',
    description: 'answers at once',
    params: Type.Object({}),
    result: Type.String(),
    handler: () => after(1, () => ({ data: 'ok' })),
  }),
])
const request = (name: string) => ({ jsonrpc: '2.0', id: 1, method: name, params: {} })

test('a method pending at the deadline answers -32000 TIMEOUT naming the timeout', async () => {
  const reply = await runQuery(ctx, request('slow'), Date.now() + 30, 30, table)
  expect(reply).toEqual({
    jsonrpc: '2.0',
    id: 1,
    error: { code: -32000, message: 'slow timed out after 30 ms', data: { reason: 'TIMEOUT' } },
  })
})

test('a method that answers in time is not affected', async () => {
  const reply = await runQuery(ctx, request('quick'), Date.now() + 5_000, 5_000, table)
  expect(reply).toEqual({ jsonrpc: '2.0', id: 1, result: { height: 7, chain_height: 7, stale: false, data: 'ok' } })
})

test('a deadline already passed (spent queueing) times out, and the abandoned call failing later is swallowed', async () => {
  let unhandled = 0
  const onUnhandled = () => {
    unhandled++
  }
  process.on('unhandledRejection', onUnhandled)
  try {
    const reply = await runQuery(ctx, request('slowFailing'), Date.now() - 1, 10_000, table)
    expect(reply).toMatchObject({ error: { code: -32000, data: { reason: 'TIMEOUT' } } })
    await after(120, () => undefined)
    expect(lateFailures).toBe(1)
    expect(unhandled).toBe(0)
  } finally {
    process.off('unhandledRejection', onUnhandled)
  }
})

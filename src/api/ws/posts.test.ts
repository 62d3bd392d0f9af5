// Post replies over the WebSocket (docs/websocket.md#posting-actions): ids, and a result too large for
// one frame split along result.events and put back together by the client.
import { expect, test } from 'bun:test'
import { mergeParts, type WsFrame } from '../../client/ws-client.ts'
import { postReplyFrames } from './frames.ts'
import { POST_ID_LENGTH_MAX, postIdProblem } from './posts.ts'

test('post ids: strings up to 128 characters and finite numbers', () => {
  expect(postIdProblem(0)).toBeUndefined()
  expect(postIdProblem(-1.5)).toBeUndefined()
  expect(postIdProblem('')).toBeUndefined()
  expect(postIdProblem('x'.repeat(POST_ID_LENGTH_MAX))).toBeUndefined()
  for (const bad of [undefined, null, true, [], {}, 'x'.repeat(POST_ID_LENGTH_MAX + 1), Number.NaN, Infinity])
    expect(postIdProblem(bad)).toContain('id')
})

test('a small reply is one frame; a refusal is never split', () => {
  const [one, ...rest] = postReplyFrames('a"b', { result: { status: 'accepted', events: [] } }, 65_536)
  expect(rest).toEqual([])
  expect(JSON.parse(`{"seq":1,${one}`)).toEqual({ seq: 1, op: 'post', id: 'a"b', result: { status: 'accepted', events: [] } })
  const err = postReplyFrames(7, { error: { code: -32010, message: 'm', data: { reason: 'BAD_SIGNATURE' } } }, 1_000)
  expect(err.map((t) => JSON.parse(`{"seq":1,${t}`))).toEqual([
    { seq: 1, op: 'post', id: 7, error: { code: -32010, message: 'm', data: { reason: 'BAD_SIGNATURE' } } },
  ])
})

test('a result over the frame limit is split along events into parts the client merges back', () => {
  const events = Array.from({ length: 2_000 }, (_, i) => ({
    event_seq: i,
    sub_kind: 'Filled',
    body: { price: '65000.5', qty: '0.001', maker: `0x${'ab'.repeat(20)}`, note: 'é' },
  }))
  const result = { status: 'accepted', tx_hash: `0x${'12'.repeat(32)}`, height: 9, envelope_idx: 3, events }
  const id = 'y'.repeat(POST_ID_LENGTH_MAX)
  const texts = postReplyFrames(id, { result }, 65_536)
  expect(texts.length).toBeGreaterThan(3)
  const frames = texts.map((t, i) => {
    const text = `{"seq":${1_000_000_000 + i},${t}`
    expect(Buffer.byteLength(text, 'utf8')).toBeLessThanOrEqual(65_536)
    return JSON.parse(text) as WsFrame
  })
  frames.forEach((f, i) => {
    expect(f).toMatchObject({ op: 'post', id, part: i + 1, parts: texts.length })
    expect((f.result as { tx_hash: string }).tx_hash).toBe(result.tx_hash)
  })
  const whole = mergeParts(frames)
  expect(whole.result).toEqual(result)
  expect(whole.id).toBe(id)
  expect(whole.part).toBeUndefined()
})

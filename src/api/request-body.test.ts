// readBodyCapped: bodies over the cap are refused whether their length is declared or streamed.
import { expect, test } from 'bun:test'
import { readBodyCapped } from './request-body.ts'

const streamOf = (text: string) =>
  new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(new TextEncoder().encode(text))
      c.close()
    },
  })

test('a body within the cap is read as text', async () => {
  expect(await readBodyCapped(new Request('http://x/', { method: 'POST', body: '{"a":"é"}' }), 16)).toBe('{"a":"é"}')
  expect(await readBodyCapped(new Request('http://x/', { method: 'POST', body: streamOf('0123456789') }), 10)).toBe('0123456789')
  expect(await readBodyCapped(new Request('http://x/'), 10)).toBe('')
})

test('a declared or streamed body over the cap is undefined', async () => {
  expect(await readBodyCapped(new Request('http://x/', { method: 'POST', body: 'x'.repeat(11) }), 10)).toBeUndefined()
  expect(await readBodyCapped(new Request('http://x/', { method: 'POST', body: streamOf('x'.repeat(11)) }), 10)).toBeUndefined()
})

import { describe, expect, test } from 'bun:test'
import { bytesToHex } from './hex.ts'
import { keccak256, keccak256Hex, keccak256Noble, keccakWasmReady } from './keccak.ts'

describe('keccak256', () => {
  test('the WebAssembly hasher starts here', async () => {
    expect(await keccakWasmReady).toBe(true)
  })

  test('known digests (Ethereum keccak, not SHA3-256)', async () => {
    await keccakWasmReady
    expect(keccak256Hex(new Uint8Array())).toBe('0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470')
    expect(keccak256Hex(new TextEncoder().encode('abc'))).toBe('0x4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45')
  })

  test('the WebAssembly and JavaScript hashers agree on every length around the 136-byte rate', async () => {
    await keccakWasmReady
    let seed = 7
    for (let n = 0; n <= 600; n++) {
      const data = new Uint8Array(n)
      for (let i = 0; i < n; i++) {
        seed = (seed * 1103515245 + 12345) >>> 0
        data[i] = seed >>> 24
      }
      const wasm = keccak256(data)
      expect(wasm.length).toBe(32)
      expect(bytesToHex(wasm)).toBe(bytesToHex(keccak256Noble(data)))
    }
  })

  test('each digest is its own array (the shared hasher does not hand out its buffer)', async () => {
    await keccakWasmReady
    const a = keccak256(new Uint8Array([1]))
    const before = bytesToHex(a)
    keccak256(new Uint8Array([2]))
    expect(bytesToHex(a)).toBe(before)
  })
})

import { describe, expect, test } from 'bun:test'
import { Signer } from '../../client/signer.ts'
import { silentLogger } from '../../lib/log.ts'
import type { KeyStore } from '../store/key-store.ts'
import type { ComponentSpec } from './component.ts'
import { RunnerSupervisor } from './supervisor.ts'

const KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d'
const keyBytes = () => Uint8Array.from(Buffer.from(KEY.slice(2), 'hex'))

describe("a runner's key in memory (docs/admin.md#sealing-and-the-kek-file)", () => {
  test('the signer holds the bytes the key store opened, and a stopped runner leaves them all zeros', async () => {
    // The buffers the key store handed out: the signer takes them over, never a string of the key.
    const opened: Uint8Array[] = []
    const keys = {
      openPrivateKey: () => {
        const b = keyBytes()
        opened.push(b)
        return b
      },
    } as unknown as KeyStore
    let cycles = 0
    const spec: ComponentSpec = {
      service: 'liquidator',
      role: 'Liquidator',
      actions: [],
      intervalMs: 20,
      create: () => ({
        cycle: async () => {
          cycles++
          return { problems: [] }
        },
        detail: () => ({}),
      }),
    }
    // Nothing listens on port 1: the runner waits on its chain checks, holding its signer all along.
    const supervisor = new RunnerSupervisor({
      nodeUrl: 'http://127.0.0.1:1',
      specs: { liquidator: spec },
      keys,
      log: silentLogger,
      clock: Date.now,
    })
    const binding = { key_id: '00000000-0000-4000-8000-000000000001', address: null, enabled: true }
    await supervisor.apply('liquidator', binding)
    expect(opened).toHaveLength(1)
    const held = opened[0]!
    expect(held).toEqual(keyBytes())
    const runner = (supervisor as unknown as { runners: Map<string, { ctx: { client: { signer: Signer } } }> }).runners.get('liquidator')!
    const signer = runner.ctx.client.signer
    // The very buffer, not a copy: zeroing it is zeroing the key.
    expect((signer as unknown as { key: Uint8Array }).key).toBe(held)
    expect(signer.sign({ CancelOrder: { order_id: 1 } }, 0, 'dev').txHash).toMatch(/^0x/)

    await supervisor.apply('liquidator', { ...binding, enabled: false })
    expect(held.every((b) => b === 0)).toBe(true)
    expect(() => signer.sign({ CancelOrder: { order_id: 1 } }, 1, 'dev')).toThrow('disposed')
    expect(cycles).toBe(0)

    // A key that cannot be used to start a runner is zeroed as well.
    const bad = new Uint8Array(32)
    const refusing = new RunnerSupervisor({
      nodeUrl: 'http://127.0.0.1:1',
      specs: { liquidator: spec },
      keys: { openPrivateKey: () => bad.fill(0xff) } as unknown as KeyStore,
      log: silentLogger,
      clock: Date.now,
    })
    await refusing.apply('liquidator', binding)
    expect(refusing.status('liquidator', binding).last_error).toContain('cannot start')
    expect(bad.every((b) => b === 0)).toBe(true)
    await supervisor.stopAll()
  })

  test('Signer.dispose zeroes a key given as bytes', () => {
    const b = keyBytes()
    const s = new Signer(b)
    s.dispose()
    expect(b.every((x) => x === 0)).toBe(true)
  })
})

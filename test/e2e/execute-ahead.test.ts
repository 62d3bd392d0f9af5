// --no-execute-ahead on a real node: its blocks are applied at their tick (the `ahead` phase of
// perpd_block_phase_seconds stays at 0), where a node started without it applies its actions before
// the tick (time in `ahead`). Either way the actions are answered from committed blocks.
import { afterEach, expect, test } from 'bun:test'
import type { Hex } from 'viem'
import { placeOrder } from '../../src/client/actions.ts'
import { PerpdClient } from '../../src/client/perpd-client.ts'
import { DEV_KEYS, type NodeProcess, removeDir, startNode } from '../support/node-process.ts'
import { parsePrometheusText, sampleValue } from '../support/prometheus-text.ts'

const started: NodeProcess[] = []
afterEach(async () => {
  for (const node of started.splice(0)) {
    await node.stop()
    removeDir(node.dataDir)
  }
})

/** Seconds spent ahead of the tick over the node's blocks, after three orders each in a block of its own. */
async function aheadSeconds(extraArgs: string[]): Promise<number> {
  const node = await startNode({ extraArgs })
  started.push(node)
  const trader = new PerpdClient({ url: node.url, privateKey: DEV_KEYS[1] as Hex })
  for (let i = 0; i < 3; i++) {
    const reply = await trader.send(
      placeOrder({ market_id: 1, side: 'Bid', price: String(30_000 + i), qty: '0.01', tif: 'Gtc', reduce_only: false }),
    )
    expect(reply.status).toBe('accepted')
  }
  const m = parsePrometheusText(await (await fetch(`${node.url}/metrics`)).text())
  expect(sampleValue(m, 'perpd_block_phase_seconds_count', { phase: 'ahead' })).toBe(
    sampleValue(m, 'perpd_block_production_seconds_count')!,
  )
  return sampleValue(m, 'perpd_block_phase_seconds_sum', { phase: 'ahead' })!
}

test('a node applies its actions ahead of the tick, unless started with --no-execute-ahead', async () => {
  expect(await aheadSeconds([])).toBeGreaterThan(0)
  expect(await aheadSeconds(['--no-execute-ahead'])).toBe(0)
}, 60_000)

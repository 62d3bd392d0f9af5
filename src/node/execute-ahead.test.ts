// Blocks executed ahead of their tick (ChainNode's executeAhead, on the block clock): the envelopes
// admitted before a block's lead time are applied then, the later ones as they arrive, and the
// tick closes, stores and answers the block. Checked against a block executed all at once: every
// stored block re-executes from the one before to the same events, rows and root (with the state
// root on its own thread and without); readers wait while the state holds an open block; a node
// stopped with a block open refuses its actions, stores nothing of it, and restarts at its tip.
import { afterEach, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DEV_KEYS } from '../../test/support/node-process.ts'
import { createGenesisState, executeBlock, fullStateRoot } from '../chain/index.ts'
import { Signer } from '../client/signer.ts'
import { bytesToHex } from '../lib/hex.ts'
import type { ActionResult } from './action-result.ts'
import { BlockStore } from './block-store.ts'
import { ChainNode, type ChainNodeOptions } from './chain-node.ts'
import { devGenesis } from './dev-genesis.ts'
import { atTheEdge } from './edge-envelope.ts'
import { storedEvents } from './views.ts'

const BLOCK_MS = 100
const dirs: string[] = []
const nodes: ChainNode[] = []
afterEach(() => {
  for (const node of nodes.splice(0)) node.stop()
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function newDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'perpd-ahead-'))
  dirs.push(dir)
  return dir
}

function clockNode(dataDir: string, overrides: Partial<ChainNodeOptions> = {}): ChainNode {
  const node = new ChainNode({ dataDir, genesis: devGenesis(), blockTimeMs: BLOCK_MS, log: () => {}, ...overrides })
  nodes.push(node)
  node.start()
  return node
}

const signers = [1, 2, 3].map((k) => new Signer(DEV_KEYS[k]!))

/** Until the state holds an open block (polled every millisecond), or false after timeoutMs. */
async function blockOpens(node: ChainNode, timeoutMs = 2_000): Promise<boolean> {
  const deadline = performance.now() + timeoutMs
  while (node.isSettled()) {
    if (performance.now() > deadline) return false
    await Bun.sleep(1)
  }
  return true
}

/**
 * Sends orders that rest, cross, fill and are cancelled from three signers, a few every few
 * milliseconds for `ms`, so that blocks get envelopes both at their lead time and after it.
 */
async function trade(node: ChainNode, ms: number): Promise<{ replies: ActionResult[]; sentWhileOpen: number }> {
  const nonces = signers.map((s) => node.state.nonces.get(s.address)?.floor ?? 0)
  const replies: Promise<ActionResult>[] = []
  const send = (k: number, action: Record<string, unknown>) =>
    replies.push(node.submit(signers[k]!.sign(action, nonces[k]!++, 'dev').params))
  const end = performance.now() + ms
  let sentWhileOpen = 0
  for (let i = 0; performance.now() < end; i++) {
    if (!node.isSettled()) sentWhileOpen++
    send(0, {
      PlaceOrder: {
        market_id: 1,
        side: 'Bid',
        price: String(64_000 + (i % 9)),
        qty: '0.01',
        tif: 'Gtc',
        reduce_only: false,
        client_order_id: `b${i}`,
      },
    })
    send(1, { PlaceOrder: { market_id: 1, side: 'Ask', price: String(64_003 + (i % 7)), qty: '0.004', tif: 'Gtc', reduce_only: false } })
    if (i % 3 === 0) send(2, { PlaceOrder: { market_id: 1, side: 'Ask', price: '63000', qty: '0.02', tif: 'Ioc', reduce_only: false } })
    if (i > 0 && i % 2 === 0) send(0, { CancelOrder: { market_id: 1, client_order_id: `b${i - 1}` } })
    // Orders that expire at a later block's begin hooks: events of no envelope, before its envelopes'.
    if (i % 5 === 0)
      send(1, {
        PlaceOrder: {
          market_id: 1,
          side: 'Bid',
          price: '50000',
          qty: '0.001',
          tif: 'Gtc',
          reduce_only: false,
          expires_at_ms: Date.now() + 150,
        },
      })
    await Bun.sleep(8)
  }
  return { replies: await Promise.all(replies), sentWhileOpen }
}

/** Re-executes every stored block from genesis, each at once, and compares its events, statuses and root with the stored ones. */
function reexecuteStore(dataDir: string): number {
  const store = new BlockStore(dataDir)
  try {
    const { state } = createGenesisState(devGenesis())
    const tip = store.tipHeight()
    let envelopes = 0
    for (let height = 1; height <= tip; height++) {
      const header = store.header(height)!
      const stored = store.envelopesOf(height)
      const result = executeBlock(state, {
        height,
        timestampMs: header.timestampMs,
        envelopes: stored.map((e) =>
          atTheEdge({ signer: e.signer, nonce: e.nonce, action: JSON.parse(e.actionJson), txHash: e.txHash }, e.actionKind),
        ),
      })
      expect(result.envelopes.map((r) => r.status)).toEqual(stored.map((e) => e.status))
      expect(store.eventsOf(height, 0, 1_000_000)).toEqual(storedEvents(state, height, result))
      expect(bytesToHex(fullStateRoot(state))).toBe(header.stateRoot)
      envelopes += stored.length
    }
    return envelopes
  } finally {
    store.close()
  }
}

/** Events of sub kind `subKind` in the whole store. */
function countEvents(store: BlockStore, subKind: string): number {
  let n = 0
  for (let h = 1; h <= store.tipHeight(); h++) n += store.eventsOf(h, 0, 1_000_000).filter((e) => e.subKind === subKind).length
  return n
}

describe('blocks executed ahead of their tick', () => {
  for (const stateRootThread of [false, true]) {
    test(`re-execute from the store to the same events, statuses and roots${stateRootThread ? ' (state root on its thread)' : ''}`, async () => {
      const dir = newDir()
      const node = clockNode(dir, { stateRootThread })
      const { replies, sentWhileOpen } = await trade(node, 1_200)
      // Envelopes came both before blocks' lead times and while blocks were open (applied on arrival).
      expect(sentWhileOpen).toBeGreaterThan(0)
      // In blocks, all of them (a cancel of an order that filled is kept as a reject).
      expect(replies.filter((r) => r.status === 'refused')).toEqual([])
      expect(replies.filter((r) => r.status === 'accepted').length).toBeGreaterThan(replies.length / 2)
      // Some blocks had envelopes applied ahead and others after: the rows of both were written.
      node.stop()
      const envelopes = reexecuteStore(dir)
      expect(envelopes).toBe(replies.length)
      // Blocks held events of their begin hooks (expiries) as well as of their envelopes.
      const store = new BlockStore(dir)
      const expired = countEvents(store, 'OrderExpired')
      store.close()
      expect(expired).toBeGreaterThan(0)
      // And a restart replays them from genesis, checking every root and digest.
      const again = new ChainNode({ dataDir: dir, genesis: devGenesis(), blockTimeMs: BLOCK_MS, log: () => {}, fromGenesis: true })
      nodes.push(again)
      expect(again.state.height).toBe(node.state.height)
    })
  }

  test('readers wait while a block is open; the open block is in the state and not in the store', async () => {
    const dir = newDir()
    const node = clockNode(dir)
    const nonce = (node.state.nonces.get(signers[0]!.address)?.floor ?? 0) + 1
    const reply = node.submit(
      signers[0]!.sign(
        {
          PlaceOrder: { market_id: 1, side: 'Bid', price: '60000', qty: '0.01', tif: 'Gtc', reduce_only: false, client_order_id: 'ahead' },
        },
        nonce,
        'dev',
      ).params,
    )
    expect(await blockOpens(node)).toBe(true)
    // Open: the state holds the block's first envelope, the store and tipHeight the last committed block.
    expect(node.tipHeight).toBe(node.state.height - 1)
    expect(node.store.tipHeight()).toBe(node.tipHeight)
    const open = node.state.height
    const settled = node.whenSettled()
    expect(settled).toBeInstanceOf(Promise)
    await settled
    expect(node.isSettled()).toBe(true)
    expect(node.whenSettled()).toBeUndefined()
    expect(node.store.tipHeight()).toBe(open)
    const result = await reply
    expect(result.status).toBe('accepted')
    if (result.status === 'accepted') expect(result.height).toBe(open)
  })

  test('stopped with a block open: its actions are refused, nothing of it is stored, the restart is at the tip', async () => {
    const dir = newDir()
    const node = clockNode(dir)
    await new Promise<void>((resolve) => node.onBlock(() => resolve()))
    const nonce = (node.state.nonces.get(signers[0]!.address)?.floor ?? 0) + 1
    const order = { PlaceOrder: { market_id: 1, side: 'Bid', price: '60000', qty: '0.01', tif: 'Gtc', reduce_only: false } }
    const reply = node.submit(signers[0]!.sign(order, nonce, 'dev').params)
    expect(await blockOpens(node)).toBe(true)
    const committed = node.tipHeight
    node.stop()
    const result = await reply
    expect(result.status).toBe('refused')
    if (result.status === 'refused') expect(result.error.data).toMatchObject({ reason: 'SHUTTING_DOWN' })
    const again = clockNode(dir)
    expect(again.state.height).toBe(committed)
    // The nonce was never consumed: the same signed action is taken after the restart.
    const retried = await again.submit(signers[0]!.sign(order, nonce, 'dev').params)
    expect(retried.status).toBe('accepted')
    again.stop()
    expect(reexecuteStore(dir)).toBeGreaterThan(0)
  })

  test('without executeAhead a block is applied at its tick: the state is always settled', async () => {
    const node = clockNode(newDir(), { executeAhead: false })
    const traded = trade(node, 400)
    const deadline = performance.now() + 400
    while (performance.now() < deadline) {
      expect(node.isSettled()).toBe(true)
      await Bun.sleep(1)
    }
    const { replies, sentWhileOpen } = await traded
    expect(sentWhileOpen).toBe(0)
    expect(replies.filter((r) => r.status === 'refused')).toEqual([])
  })
})

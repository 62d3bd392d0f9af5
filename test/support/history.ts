// Test helpers of the history index: a real chain (chain/test-chain.ts TestChain) whose blocks
// are committed to a real block store exactly as the node stores them (node/views.ts
// storedEvents), and a pipeline over that store. Test-only: nothing in the node imports this module.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { BlockResult, EnvelopeInput } from '../../src/chain/index.ts'
import { Pipeline } from '../../src/indexer/pipeline.ts'
import { bytesToHex } from '../../src/lib/hex.ts'
import { BlockStore, copyBlockStoreFiles, type StoredEnvelope } from '../../src/node/block-store.ts'
import { storedEvents } from '../../src/node/views.ts'
import { TestChain, type Tx } from './chain/test-chain.ts'

export class IndexedChain {
  readonly dir = mkdtempSync(join(tmpdir(), 'perpd-history-test-'))
  readonly store = new BlockStore(this.dir)
  private parent = `0x${'00'.repeat(32)}`

  /** Every block the chain applies from now on (through any helper) is committed to the store. */
  constructor(readonly chain: TestChain = new TestChain()) {
    const apply = chain.applyEnvelopes.bind(chain)
    chain.applyEnvelopes = (envelopes: readonly EnvelopeInput[]) => {
      const result = apply(envelopes)
      this.commit(envelopes, result)
      return result
    }
  }

  /** Applies a block of transactions (committed to the block store); returns the result. */
  block(txs: readonly Tx[]): BlockResult {
    return this.chain.block(txs)
  }

  private commit(envelopes: readonly EnvelopeInput[], result: BlockResult): void {
    const state = this.chain.state
    const height = state.height
    const stored: StoredEnvelope[] = envelopes.map((e, i) => {
      const r = result.envelopes[i]!
      return {
        height,
        envelopeIdx: i,
        txHash: e.txHash,
        signer: e.signer,
        nonce: e.nonce,
        actionKind: r.actionKind,
        marketId: r.marketId,
        actionJson: JSON.stringify(e.action),
        signatureJson: '{}',
        status: r.status,
        reasonJson: r.reason === null ? null : JSON.stringify(r.reason),
      }
    })
    const events = storedEvents(state, height, result)
    const digest = `0x${height.toString(16).padStart(64, 'd')}`
    this.store.commitBlock({
      header: {
        height,
        parent: this.parent,
        digest,
        timestampMs: state.timestampMs,
        envelopeCount: stored.length,
        eventCount: events.length,
        stateRoot: bytesToHex(result.stateRoot),
      },
      envelopes: stored,
      events,
    })
    this.parent = digest
  }

  /** One transaction in a block of its own. */
  send(by: string, action: Record<string, unknown>): BlockResult {
    return this.block([{ by, action }])
  }

  get tip(): number {
    return this.chain.state.height
  }

  /** A pipeline over this store (the caller closes it). */
  pipeline(leaderboardRefreshMs?: number): Pipeline {
    return new Pipeline({ dataDir: this.dir, log: () => {}, ...(leaderboardRefreshMs === undefined ? {} : { leaderboardRefreshMs }) })
  }

  close(): void {
    this.store.close()
    rmSync(this.dir, { recursive: true, force: true })
  }
}

/** Runs the pipeline until every stage reaches `tip`. */
export function indexAll(p: Pipeline, tip: number): void {
  while (!p.caughtUp(tip)) p.step(tip)
}

/**
 * A second index over a copy of the block store in sourceDir, built the tip `blocksPerStep` blocks
 * at a time (1: a block a batch, as a node following its chain), handed to `read` and then removed.
 */
export function withIndexedCopy<T>(sourceDir: string, tip: number, blocksPerStep: number, read: (p: Pipeline) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'perpd-history-copy-'))
  try {
    copyBlockStoreFiles(sourceDir, dir)
    const p = new Pipeline({ dataDir: dir, log: () => {} })
    try {
      for (let h = blocksPerStep; h < tip + blocksPerStep; h += blocksPerStep) indexAll(p, Math.min(h, tip))
      return read(p)
    } finally {
      p.close()
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Every row of a table in primary-key order, for comparing two indexes. */
export function tableRows(p: Pipeline, table: string): unknown[] {
  const columns = p.db.query<{ name: string }, []>(`PRAGMA main.table_info(${table})`).all()
  return p.db.query(`SELECT * FROM main.${table} ORDER BY ${columns.map((_, i) => i + 1).join(', ')}`).all()
}

/** The derived tables (everything but the ingest copies and bookkeeping). */
export const DERIVED_TABLES = [
  'fills',
  'trades',
  'account_markets',
  'order_events',
  'orders',
  'fund_flows',
  'bridge_flows',
  'positions',
  'referral_events',
  'rebate_events',
  'account_events',
  'candles',
  'account_stats',
  'account_daily',
] as const

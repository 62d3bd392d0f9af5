// Stage 2, derive: turns ingested events into the secondary tables (fills, orders, flows,
// positions, referral and rebate events, account events), one module per table, in one
// transaction with the derive watermark.
import type { Database } from 'bun:sqlite'
import { DERIVE_MODULES } from '../derive/registry.ts'
import type { BlockDeriver, DeriveBatch, DeriveEvent } from '../derive/types.ts'
import { eventsBetween } from '../tables/events.ts'
import { OrderArchiveBatch } from '../tables/orders.ts'
import { writeWatermark } from '../watermarks.ts'
import { blockTimes } from './block-range.ts'

/** Derives blocks [from, to] (all ingested) in one transaction. */
export function deriveBlocks(db: Database, from: number, to: number): void {
  const times = blockTimes(db, from, to)
  db.transaction(() => {
    const batch: DeriveBatch = { orders: new OrderArchiveBatch(db) }
    const all: BlockDeriver[] = []
    const bySubKind = new Map<string, BlockDeriver[]>()
    const everyEvent: BlockDeriver[] = []
    for (const m of DERIVE_MODULES) {
      const d = m.create(db, batch)
      all.push(d)
      if (m.subKinds === '*') everyEvent.push(d)
      else for (const k of m.subKinds) bySubKind.set(k, [...(bySubKind.get(k) ?? []), d])
    }
    const withEnd = all.filter((d) => d.endBlock !== undefined)
    // Events stream in chain order, a block's at a time (no batch-sized array held); each block
    // ends when the next one's first event arrives, and blocks without events end too.
    let height = from
    const endBlocksBefore = (next: number) => {
      for (; height < next; height++) for (const d of withEnd) d.endBlock!({ height, timestampMs: times.get(height)! })
    }
    for (const row of eventsBetween(db, from, to)) {
      endBlocksBefore(row.height)
      const targets = bySubKind.get(row.sub_kind)
      if (targets === undefined && everyEvent.length === 0) continue
      const e: DeriveEvent = {
        height: row.height,
        seq: row.seq,
        envelopeIdx: row.envelope_idx,
        timestampMs: times.get(row.height)!,
        kind: row.kind,
        subKind: row.sub_kind,
        marketId: row.market_id,
        account: row.account,
        body: row.body,
      }
      if (targets !== undefined) for (const d of targets) d.event(e)
      for (const d of everyEvent) d.event(e)
    }
    endBlocksBefore(to + 1)
    for (const d of all) d.endBatch?.()
    batch.orders.flush()
    writeWatermark(db, 'derive', to)
  })()
}

// Table `envelopes`: every signed transaction of every ingested block (EnvelopeView,
// docs/history-api.md#blocks-envelopes-transactions), with the fields its lists filter and page on.
// Its action and reason are read from the block store's row (attached as `chain`), not copied.
import type { Database, SQLQueryBindings } from 'bun:sqlite'
import { keysetPage, type PageRequest } from '../paging.ts'
import type { SymbolOf } from '../symbols.ts'
import { txLocation } from './tx-runs.ts'

interface EnvelopeRow {
  height: number
  envelope_idx: number
  tx_hash: string
  signer: string
  nonce: number
  status: string
  action_kind: string
  market_id: number | null
}

/** An envelope's action and reason, as the block store keeps them (JSON); action null: the block store has no such row. */
interface ActionRow {
  action: string | null
  reason: string | null
}

/** What an envelope the block store lacks reads as (envelopeJson refuses it). */
const NO_ACTION: ActionRow = { action: null, reason: null }

const SELECT = 'height, envelope_idx, tx_hash, signer, nonce, status, action_kind, market_id'
const SELECT_WITH_ACTION = `e.height, e.envelope_idx, e.tx_hash, e.signer, e.nonce, e.status, e.action_kind, e.market_id, c.action, c.reason
  FROM envelopes e LEFT JOIN chain.envelopes c ON c.height = e.height AND c.envelope_idx = e.envelope_idx`

/**
 * The tx hash of an envelope, or null for an index no envelope has (a block's own events): for the
 * derive modules that keep it (fund and bridge flows), per event they derive. A map of every
 * envelope of a batch, built for every event, took 5% of the CPU of building the index of a
 * capacity run (a profile of scripts/bench/reindex.ts).
 */
export function txHashLookup(db: Database): (height: number, envelopeIdx: number) => string | null {
  const get = db.prepare<{ tx_hash: string }, [number, number]>('SELECT tx_hash FROM envelopes WHERE height = ? AND envelope_idx = ?')
  return (height, envelopeIdx) => get.get(height, envelopeIdx)?.tx_hash ?? null
}

/** The EnvelopeView of a row and its action; symbol is resolved now. */
export function envelopeJson(r: EnvelopeRow & ActionRow, symbolOf: SymbolOf) {
  // The block store holds every envelope the index has: a missing row is a broken data directory.
  if (r.action === null) throw new Error(`envelope ${r.height}/${r.envelope_idx} is in the history index but not in the block store`)
  return {
    height: r.height,
    envelope_idx: r.envelope_idx,
    tx_hash: r.tx_hash,
    signer: r.signer,
    nonce: r.nonce,
    status: r.status,
    action_kind: r.action_kind,
    market_id: r.market_id,
    symbol: symbolOf(r.market_id),
    action: JSON.parse(r.action) as unknown,
    reason: r.reason === null ? null : (JSON.parse(r.reason) as unknown),
  }
}

export function envelopesOfBlock(db: Database, height: number, symbolOf: SymbolOf) {
  return db
    .query<EnvelopeRow & ActionRow, [number]>(`SELECT ${SELECT_WITH_ACTION} WHERE e.height = ? ORDER BY e.envelope_idx`)
    .all(height)
    .map((r) => envelopeJson(r, symbolOf))
}

export function envelopeByHash(db: Database, txHash: string, symbolOf: SymbolOf) {
  const at = txLocation(db, txHash)
  if (at === null) return undefined
  const r = db
    .query<EnvelopeRow & ActionRow, [number, number]>(`SELECT ${SELECT_WITH_ACTION} WHERE e.height = ? AND e.envelope_idx = ?`)
    .get(at.height, at.envelope_idx)
  return r === null ? undefined : envelopeJson(r, symbolOf)
}

export interface EnvelopeFilter {
  readonly signer?: string | undefined
  readonly actionKind?: string | undefined
  readonly marketId?: number | undefined
  readonly fromBlock?: number | undefined
  readonly toBlock?: number | undefined
}

/** Envelopes newest first, filtered; the index is picked by the most selective filter given. */
export function listEnvelopes(db: Database, f: EnvelopeFilter, page: PageRequest, symbolOf: SymbolOf) {
  const where: string[] = []
  const params: SQLQueryBindings[] = []
  if (f.signer !== undefined) {
    where.push('signer = ?')
    params.push(f.signer.toLowerCase())
  }
  if (f.actionKind !== undefined) {
    where.push('action_kind = ?')
    params.push(f.actionKind)
  }
  if (f.marketId !== undefined) {
    where.push('market_id = ?')
    params.push(f.marketId)
  }
  if (f.fromBlock !== undefined) {
    where.push('height >= ?')
    params.push(f.fromBlock)
  }
  if (f.toBlock !== undefined) {
    where.push('height <= ?')
    params.push(f.toBlock)
  }
  const indexedBy =
    f.signer !== undefined
      ? 'envelopes_signer'
      : f.marketId !== undefined
        ? 'envelopes_market'
        : f.actionKind !== undefined
          ? 'envelopes_kind'
          : undefined
  const r = keysetPage<EnvelopeRow>(
    db,
    {
      table: 'envelopes',
      select: SELECT,
      where,
      params,
      keys: ['height', 'envelope_idx'],
      order: 'desc',
      ...(indexedBy ? { indexedBy } : {}),
    },
    page,
  )
  const actionOf = db.query<ActionRow, [number, number]>('SELECT action, reason FROM chain.envelopes WHERE height = ? AND envelope_idx = ?')
  const data = r.rows.map((row) => envelopeJson({ ...row, ...(actionOf.get(row.height, row.envelope_idx) ?? NO_ACTION) }, symbolOf))
  return { data, page: r.page }
}

/** Envelopes signed by `signer` in blocks [fromHeight, toHeight] (the rate-limit view). */
export function countSignedBetween(db: Database, signer: string, fromHeight: number, toHeight: number): number {
  return (
    db
      .query<{ n: number }, [string, number, number]>('SELECT COUNT(*) AS n FROM envelopes WHERE signer = ? AND height BETWEEN ? AND ?')
      .get(signer, fromHeight, toHeight)?.n ?? 0
  )
}

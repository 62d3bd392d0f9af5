// /api/v1/search: one query string that may be a block height, a block digest or tx hash (32-byte
// hex), or an account address (20-byte hex). Every kind that matches is returned.
import type { Database } from 'bun:sqlite'
import { money } from '../amounts.ts'
import type { SymbolOf } from '../symbols.ts'
import { blockById } from '../tables/blocks.ts'
import { envelopeByHash } from '../tables/envelopes.ts'

export function search(db: Database, q: string, symbolOf: SymbolOf) {
  const query = q.trim().toLowerCase()
  const out: Record<string, unknown>[] = []
  if (/^\d{1,16}$/.test(query) || /^0x[0-9a-f]{64}$/.test(query)) {
    const b = blockById(db, query)
    if (b !== undefined)
      out.push({
        type: 'block',
        height: b.height,
        digest: b.digest,
        timestamp_ms: b.timestamp_ms,
        envelope_count: b.envelope_count,
        event_count: b.event_count,
      })
  }
  if (/^0x[0-9a-f]{64}$/.test(query)) {
    const e = envelopeByHash(db, query, symbolOf)
    if (e !== undefined)
      out.push({
        type: 'tx',
        tx_hash: e.tx_hash,
        height: e.height,
        envelope_idx: e.envelope_idx,
        signer: e.signer,
        action_kind: e.action_kind,
        status: e.status,
      })
  }
  if (/^0x[0-9a-f]{40}$/.test(query)) {
    const stats = db
      .query<{ fills: number; volume: string; last_fill_ms: number }, [string]>(
        'SELECT fills, CAST(volume AS TEXT) AS volume, last_fill_ms FROM account_stats WHERE account = ?',
      )
      .get(query)
    const signed = db
      .query<{ height: number }, [string]>('SELECT height FROM envelopes WHERE signer = ? ORDER BY height DESC LIMIT 1')
      .get(query)
    const touched = db
      .query<{ height: number }, [string]>('SELECT height FROM account_events WHERE account = ? ORDER BY height DESC LIMIT 1')
      .get(query)
    if (stats !== null || signed !== null || touched !== null) {
      out.push({
        type: 'account',
        address: query,
        fills: stats?.fills ?? 0,
        volume: money(stats?.volume ?? null),
        last_fill_ms: stats?.last_fill_ms ?? null,
        last_signed_height: signed?.height ?? null,
        last_event_height: touched?.height ?? null,
      })
    }
  }
  return out
}

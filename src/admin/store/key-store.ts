// Operator keys at rest (docs/admin.md#keys): each private key sealed under the KEK with its row id
// as associated data. Only openPrivateKey() ever produces the plaintext, as bytes the caller owns
// and zeroes, and only runners call it.
import type { Database } from 'bun:sqlite'
import { existsSync } from 'node:fs'
import type { KeyEntry } from '../../wire/admin-replies.ts'
import { addressOfPrivateKey } from '../../wire/signing.ts'
import { type Kek, KekError, type Sealed, seal, unseal } from '../crypto/kek.ts'
import { appendAudit } from './audit.ts'
import { type AdminDb, DatabaseUnavailableError } from './db.ts'

/** Outcome of {@link KeyStore.delete}. */
export type DeleteOutcome =
  | { readonly ok: true }
  | { readonly ok: false; readonly missing: true }
  | { readonly ok: false; readonly missing: false; readonly usedBy: string[] }

/** Outcome of {@link KeyStore.create}. */
export type CreateOutcome = { readonly ok: true; readonly entry: KeyEntry } | { readonly ok: false; readonly existingId: string }

/** Keys one listing returns at most; far above what one operator team uploads. */
export const KEYS_MAX = 1_000

/** The meta row naming the KEK the database's secrets are sealed under. */
export const KEK_ID_META = 'kek_id'

/** Longest label, in UTF-16 code units. */
export const KEY_LABEL_MAX = 64

// Control characters (C0, DEL, C1), format characters (bidirectional overrides, zero-width…),
// surrogates, private-use and unassigned code points, and the line and paragraph separators: what
// could move a terminal's cursor, recolour it, reorder what it shows or split a log line.
const UNPRINTABLE = /[\p{C}\p{Zl}\p{Zp}]/u

/** Whether a key label is 1 to KEY_LABEL_MAX printable characters (docs/admin.md#key-routes). */
export function isPrintableLabel(label: string): boolean {
  return label.length >= 1 && label.length <= KEY_LABEL_MAX && !UNPRINTABLE.test(label)
}

interface KeyRow {
  id: string
  label: string
  address: string
  created_at_ms: number
}

/** The keys table: sealed private keys with their labels and addresses. */
export class KeyStore {
  constructor(
    private readonly db: AdminDb,
    private readonly kek: Kek,
    private readonly clock: () => number = Date.now,
  ) {}

  /**
   * Binds the database to the KEK: the first start records the KEK's id, later starts must load
   * the same KEK, or every stored key would be unreadable (refused here, at start, not at use).
   */
  checkKek(kekFile: string): void {
    const recorded = this.db.meta(KEK_ID_META)
    if (recorded === undefined) {
      this.db.setMeta(KEK_ID_META, this.kek.id)
      return
    }
    if (recorded !== this.kek.id) {
      throw new KekError(
        `the KEK in ${kekFile} (id ${this.kek.id}) is not the one this database was written with (id ${recorded}); ` +
          `start with the original --kek-file${existsSync(`${kekFile}.old`) ? ` (${kekFile}.old exists: if a kek rotate was interrupted, that file may be the one: see docs/admin.md#rotating-the-kek)` : ''}`,
      )
    }
  }

  list(): KeyEntry[] {
    return this.db.read((d) => {
      const rows = d
        .query('SELECT id, label, address, created_at_ms FROM keys ORDER BY created_at_ms, id LIMIT ?')
        .all(KEYS_MAX) as KeyRow[]
      const uses = d.query('SELECT service, key_id FROM service_bindings WHERE key_id IS NOT NULL ORDER BY service').all() as {
        service: string
        key_id: string
      }[]
      return rows.map((r) =>
        entryOf(
          r,
          uses.filter((u) => u.key_id === r.id).map((u) => u.service),
        ),
      )
    })
  }

  get(id: string): KeyEntry | undefined {
    return this.db.read((d) => {
      const row = d.query('SELECT id, label, address, created_at_ms FROM keys WHERE id = ?').get(id) as KeyRow | null
      if (row === null) return undefined
      const uses = d.query('SELECT service FROM service_bindings WHERE key_id = ? ORDER BY service').all(id) as { service: string }[]
      return entryOf(
        row,
        uses.map((u) => u.service),
      )
    })
  }

  /** Seals and stores a private key with its audit row, in one transaction. */
  create(p: { label: string; privateKey: Uint8Array; actor: string }): CreateOutcome {
    if (!isPrintableLabel(p.label)) throw new Error('a key label must be printable text')
    const { id, address, sealed } = sealForNewRow(this.kek, p.privateKey)
    const now = this.clock()
    return this.db.write((tx) => {
      const existingId = rowHoldingAddress(tx, this.kek, 'keys', address)
      if (existingId !== undefined) return { ok: false as const, existingId }
      tx.query(
        'INSERT INTO keys (id, label, address, kek_id, nonce, sealed, created_at_ms, created_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ).run(id, p.label, address, this.kek.id, sealed.nonce, sealed.sealed, now, p.actor)
      appendAudit(tx, { atMs: now, actor: p.actor, action: 'key.upload', target: id, detail: { label: p.label, address } })
      return { ok: true as const, entry: entryOf({ id, label: p.label, address, created_at_ms: now }, []) }
    })
  }

  /** Renames a key with its audit row; undefined when there is no such key. */
  rename(id: string, label: string, actor: string): KeyEntry | undefined {
    if (!isPrintableLabel(label)) throw new Error('a key label must be printable text')
    this.db.write((tx) => {
      const row = tx.query('SELECT label FROM keys WHERE id = ?').get(id) as { label: string } | null
      if (row === null) return
      tx.query('UPDATE keys SET label = ? WHERE id = ?').run(label, id)
      appendAudit(tx, { atMs: this.clock(), actor, action: 'key.rename', target: id, detail: { from: row.label, to: label } })
    })
    return this.get(id)
  }

  /** Deletes an unbound key with its audit row; a bound key is left alone. */
  delete(id: string, actor: string): DeleteOutcome {
    return this.db.write((tx) => {
      const row = tx.query('SELECT address FROM keys WHERE id = ?').get(id) as { address: string } | null
      if (row === null) return { ok: false as const, missing: true as const }
      const uses = tx.query('SELECT service FROM service_bindings WHERE key_id = ? ORDER BY service').all(id) as { service: string }[]
      if (uses.length > 0) return { ok: false as const, missing: false as const, usedBy: uses.map((u) => u.service) }
      tx.query('DELETE FROM keys WHERE id = ?').run(id)
      appendAudit(tx, { atMs: this.clock(), actor, action: 'key.delete', target: id, detail: { address: row.address } })
      return { ok: true as const }
    })
  }

  /**
   * The private key of a stored key as its 32 bytes, for a runner's signer, which takes them over
   * and zeroes them when it stops; undefined when the key does not exist. Throws when the sealed
   * bytes do not open (tampered row or wrong KEK).
   */
  openPrivateKey(id: string): Uint8Array | undefined {
    return openSealedKey(this.db, this.kek, 'keys', id)
  }
}

/** The tables whose rows hold a private key sealed under the KEK, with the row id as associated data. */
export type SealedKeyTable = 'keys' | 'hedge_accounts'

/** A private key sealed for a new row: the row's fresh id (the associated data), the key's address and the sealed bytes. */
export function sealForNewRow(kek: Kek, privateKey: Uint8Array): { id: string; address: string; sealed: Sealed } {
  const id = crypto.randomUUID()
  return { id, address: addressOfPrivateKey(privateKey), sealed: seal(kek, id, privateKey) }
}

/**
 * Inside the write transaction that stores a sealed key: refuses a KEK the database no longer
 * records ({@link assertKekCurrent}), then returns the id of a row of `table` (other than
 * `exceptId`) that already holds the key of `address`, if any: one row per address.
 */
export function rowHoldingAddress(tx: Database, kek: Kek, table: SealedKeyTable, address: string, exceptId?: string): string | undefined {
  assertKekCurrent(tx, kek)
  const row = (
    exceptId === undefined
      ? tx.query(`SELECT id FROM ${table} WHERE address = ?`).get(address)
      : tx.query(`SELECT id FROM ${table} WHERE address = ? AND id <> ?`).get(address, exceptId)
  ) as { id: string } | null
  return row?.id
}

/** The private key sealed in row `id` of `table`, as bytes the caller zeroes; undefined when there is no such row. */
export function openSealedKey(db: AdminDb, kek: Kek, table: SealedKeyTable, id: string): Uint8Array | undefined {
  const row = db.read(
    (d) => d.query(`SELECT nonce, sealed FROM ${table} WHERE id = ?`).get(id) as { nonce: Uint8Array; sealed: Uint8Array } | null,
  )
  if (row === null) return undefined
  return unseal(kek, id, { nonce: row.nonce, sealed: row.sealed })
}

/**
 * Refuses to seal under a KEK the database no longer records (a `kek rotate` ran while this
 * process was up): such a secret would not open after the next start. Every store that seals
 * (operator keys, hedge accounts) checks it inside its write transaction.
 */
export function assertKekCurrent(tx: Database, kek: Kek): void {
  const recorded = (tx.query('SELECT value FROM meta WHERE key = ?').get(KEK_ID_META) as { value: string } | null)?.value
  if (recorded !== undefined && recorded !== kek.id) {
    throw new DatabaseUnavailableError(
      `the database's secrets are now sealed under KEK ${recorded}, not this process's ${kek.id} (a kek rotate ran while the service was up); restart the service with the new KEK`,
    )
  }
}

function entryOf(row: KeyRow, usedBy: string[]): KeyEntry {
  return { id: row.id, label: row.label, address: row.address, created_at: new Date(row.created_at_ms).toISOString(), used_by: usedBy }
}

// The admin service's own SQLite database (bun:sqlite, WAL): operator keys (sealed), service
// bindings, the append-only, hash-chained audit log, bridge bookkeeping, hedging (accounts sealed
// like operator keys, policies, config, order records) and market categories with the symbol
// catalog. Schema changes are numbered migrations tracked in PRAGMA user_version, applied in order
// to a database of any earlier version.
import { Database, SQLiteError } from 'bun:sqlite'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { chainExistingAuditRows } from './audit.ts'

/** File name of the database inside --data-dir. */
export const ADMIN_DB_FILE = 'admin.sqlite'

/** How long a write waits for a lock held by someone else before the request gets a 503. */
const BUSY_TIMEOUT_MS = 2_000

/** One schema change: SQL, and code for what SQL alone cannot do (run after the SQL, in the same transaction). */
export interface Migration {
  readonly version: number
  readonly sql: string
  readonly run?: (db: Database) => void
}

/** Every schema change in order (exported for the migration tests). */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    sql: `
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

      -- Operator keys. The private key is only ever stored sealed (AES-256-GCM under the KEK, the
      -- row id as associated data); kek_id names the KEK so a rotation can find what to re-seal.
      CREATE TABLE keys (
        id TEXT PRIMARY KEY,
        label TEXT NOT NULL,
        address TEXT NOT NULL UNIQUE,
        kek_id TEXT NOT NULL,
        nonce BLOB NOT NULL,
        sealed BLOB NOT NULL,
        created_at_ms INTEGER NOT NULL,
        created_by TEXT NOT NULL
      );

      -- One row per component that was ever configured. The foreign key makes "delete a bound
      -- key" impossible even if a code path forgot the 409 check.
      CREATE TABLE service_bindings (
        service TEXT PRIMARY KEY,
        key_id TEXT REFERENCES keys(id),
        enabled INTEGER NOT NULL,
        updated_at_ms INTEGER NOT NULL,
        updated_by TEXT NOT NULL
      );

      CREATE TABLE audit_log (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        at_ms INTEGER NOT NULL,
        actor TEXT NOT NULL,
        action TEXT NOT NULL,
        target TEXT,
        detail TEXT NOT NULL
      );
      -- Append-only is enforced by the database itself, not only by the absence of a code path.
      CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
        BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
      CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
        BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;

      -- Deposits the bridge_deposit runner has handled, so a restart never credits one twice.
      CREATE TABLE bridge_deposits (
        deposit_id TEXT PRIMARY KEY,
        account TEXT NOT NULL,
        amount TEXT NOT NULL,
        status TEXT NOT NULL,
        tx_hash TEXT,
        height INTEGER,
        reason TEXT,
        updated_at_ms INTEGER NOT NULL
      );

      -- Withdrawals the bridge_withdraw runner paid out or settled: a payout is recorded before
      -- the settlement is sent, so a failed settlement is retried without paying twice.
      CREATE TABLE bridge_withdrawals (
        withdrawal_id INTEGER PRIMARY KEY,
        account TEXT NOT NULL,
        destination TEXT NOT NULL,
        amount TEXT NOT NULL,
        status TEXT NOT NULL,
        external_tx TEXT,
        tx_hash TEXT,
        height INTEGER,
        reason TEXT,
        updated_at_ms INTEGER NOT NULL
      );

      -- Accounts seen requesting a withdrawal (the node lists pending withdrawals per address).
      CREATE TABLE bridge_withdraw_accounts (address TEXT PRIMARY KEY, seen_height INTEGER NOT NULL);
    `,
  },
  {
    version: 2,
    // The audit rows become a hash chain (docs/admin.md#audit-chain): each row carries the hash of
    // the row before it and its own hash over that and its content. The rows already there are
    // chained here, with the append-only trigger lifted for that moment only (same transaction).
    // And a key serves one service: binding it to a second one is refused by the database too
    // (docs/admin.md#bindings); bindings an earlier version allowed are left as they are.
    sql: `
      ALTER TABLE audit_log ADD COLUMN prev_hash TEXT;
      ALTER TABLE audit_log ADD COLUMN hash TEXT;
      DROP TRIGGER audit_log_no_update;

      CREATE TRIGGER service_bindings_one_key_insert BEFORE INSERT ON service_bindings
        WHEN NEW.key_id IS NOT NULL AND EXISTS (SELECT 1 FROM service_bindings WHERE key_id = NEW.key_id AND service <> NEW.service)
        BEGIN SELECT RAISE(ABORT, 'KEY_IN_USE: a key serves one service'); END;
      CREATE TRIGGER service_bindings_one_key_update BEFORE UPDATE OF key_id ON service_bindings
        WHEN NEW.key_id IS NOT NULL AND EXISTS (SELECT 1 FROM service_bindings WHERE key_id = NEW.key_id AND service <> NEW.service)
        BEGIN SELECT RAISE(ABORT, 'KEY_IN_USE: a key serves one service'); END;
    `,
    run(db) {
      chainExistingAuditRows(db)
      db.run(`CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
        BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;`)
    },
  },
  {
    version: 3,
    // Withdrawal rows belong to a chain (docs/admin.md#withdrawal-states): withdrawal ids restart
    // with a new chain, so the key is the chain (the digest of its block 1) and the id. Rows from
    // before get chain '' and are adopted by the first chain the runner meets. New columns: the
    // treasury's idempotency key, and the settlements and refunds sent without a reply.
    sql: `
      CREATE TABLE bridge_withdrawals_v3 (
        chain TEXT NOT NULL,
        withdrawal_id INTEGER NOT NULL,
        account TEXT NOT NULL,
        destination TEXT NOT NULL,
        amount TEXT NOT NULL,
        status TEXT NOT NULL,
        idempotency_key TEXT,
        external_tx TEXT,
        sent_tx_hashes TEXT NOT NULL DEFAULT '[]',
        tx_hash TEXT,
        height INTEGER,
        reason TEXT,
        created_at_ms INTEGER NOT NULL,
        updated_at_ms INTEGER NOT NULL,
        PRIMARY KEY (chain, withdrawal_id)
      );
      INSERT INTO bridge_withdrawals_v3 (chain, withdrawal_id, account, destination, amount, status, external_tx, tx_hash, height, reason, created_at_ms, updated_at_ms)
        SELECT '', withdrawal_id, account, destination, amount, status, external_tx, tx_hash, height, reason, updated_at_ms, updated_at_ms FROM bridge_withdrawals;
      DROP TABLE bridge_withdrawals;
      ALTER TABLE bridge_withdrawals_v3 RENAME TO bridge_withdrawals;
    `,
  },
  {
    version: 4,
    // Hedging (docs/admin.md#hedging): external venue accounts, their keys sealed under the KEK like
    // the operator keys (the row id as associated data; kek-rotation.ts re-seals them too), the
    // per-market policies, the one-row global config, and the order records, written before an
    // order is sent so a restart never sends it twice.
    sql: `
      CREATE TABLE hedge_accounts (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        address TEXT NOT NULL UNIQUE,
        enabled INTEGER NOT NULL,
        kek_id TEXT NOT NULL,
        nonce BLOB NOT NULL,
        sealed BLOB NOT NULL,
        margin_account_value TEXT,
        margin_withdrawable TEXT,
        margin_updated_at_ms INTEGER,
        created_at_ms INTEGER NOT NULL,
        updated_at_ms INTEGER NOT NULL,
        updated_by TEXT NOT NULL
      );
      CREATE TABLE hedge_policies (
        market_symbol TEXT PRIMARY KEY,
        hedge_ratio TEXT NOT NULL,
        hedge_mode TEXT NOT NULL,
        account_id TEXT,
        enabled INTEGER NOT NULL,
        threshold_notional TEXT,
        min_order_sz TEXT,
        max_order_sz TEXT,
        updated_at_ms INTEGER NOT NULL,
        updated_by TEXT NOT NULL
      );
      CREATE TABLE hedge_config (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        interval_ms INTEGER NOT NULL,
        threshold_notional TEXT NOT NULL,
        min_order_sz TEXT NOT NULL,
        max_slippage_bps INTEGER NOT NULL,
        dry_run INTEGER NOT NULL,
        ext_network TEXT NOT NULL,
        updated_at_ms INTEGER NOT NULL,
        updated_by TEXT NOT NULL
      );
      INSERT INTO hedge_config VALUES (1, 10000, '100', '0', 50, 1, 'mainnet', 0, 'default');
      CREATE TABLE hedge_orders (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        account_id TEXT NOT NULL,
        market_symbol TEXT NOT NULL,
        coin TEXT NOT NULL,
        is_buy INTEGER NOT NULL,
        sz TEXT NOT NULL,
        px TEXT NOT NULL,
        delta_before TEXT NOT NULL,
        ext_oid TEXT,
        cloid TEXT NOT NULL UNIQUE,
        status TEXT NOT NULL,
        error TEXT,
        filled_sz TEXT,
        created_at_ms INTEGER NOT NULL,
        updated_at_ms INTEGER NOT NULL
      );
      CREATE INDEX hedge_orders_account ON hedge_orders(account_id, id);
      CREATE INDEX hedge_orders_symbol ON hedge_orders(market_symbol, id);
      CREATE INDEX hedge_orders_status ON hedge_orders(status);
    `,
  },
  {
    version: 5,
    // Market categories, a two-level tree (docs/admin.md#market-categories-and-catalog), and the
    // symbol catalog: one category per symbol, stored lower-case. The canonical top-level
    // categories and the development network's markets are seeded (source 'seed', never
    // overwritten by a sync).
    sql: `
      CREATE TABLE market_categories (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        code TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL,
        parent_id INTEGER REFERENCES market_categories(id),
        enabled INTEGER NOT NULL,
        source TEXT NOT NULL,
        sort_order INTEGER NOT NULL,
        updated_at_ms INTEGER NOT NULL,
        updated_by TEXT NOT NULL
      );
      CREATE INDEX market_categories_parent ON market_categories(parent_id);
      CREATE TABLE market_catalog (
        symbol TEXT PRIMARY KEY,
        category_id INTEGER NOT NULL REFERENCES market_categories(id),
        source TEXT NOT NULL,
        updated_at_ms INTEGER NOT NULL,
        updated_by TEXT NOT NULL
      );
      CREATE INDEX market_catalog_category ON market_catalog(category_id);
      INSERT INTO market_categories (code, name, parent_id, enabled, source, sort_order, updated_at_ms, updated_by) VALUES
        ('crypto', 'Crypto', NULL, 1, 'seed', 0, CAST(unixepoch() AS INTEGER) * 1000, 'seed'),
        ('tradfi', 'TradFi', NULL, 1, 'seed', 1, CAST(unixepoch() AS INTEGER) * 1000, 'seed');
      INSERT INTO market_catalog (symbol, category_id, source, updated_at_ms, updated_by)
        SELECT s.symbol, c.id, 'seed', c.updated_at_ms, 'seed'
        FROM (SELECT 'btc-usd' AS symbol, 'crypto' AS code UNION ALL SELECT 'eth-usd', 'crypto'
              UNION ALL SELECT 'sol-usd', 'crypto' UNION ALL SELECT 'xau-usd', 'tradfi') s
        JOIN market_categories c ON c.code = s.code;
    `,
  },
]

/** The schema version this build writes. */
export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version

/** The admin database cannot be read or written (locked, unreadable, disk full…): 503. */
export class DatabaseUnavailableError extends Error {
  override readonly name = 'DatabaseUnavailableError'
}

/** SQLite failures that mean "the database cannot serve right now" rather than a bug or a conflict. */
function isUnavailable(err: unknown): boolean {
  if (err instanceof SQLiteError) return !(err.code ?? '').startsWith('SQLITE_CONSTRAINT')
  // bun:sqlite throws a plain Error once the handle is closed.
  return err instanceof Error && /closed database/i.test(err.message)
}

/** Runs fn, turning SQLite's "cannot serve" failures into DatabaseUnavailableError. */
function guarded<T>(fn: () => T): T {
  try {
    return fn()
  } catch (err) {
    if (isUnavailable(err)) throw new DatabaseUnavailableError((err as Error).message)
    throw err
  }
}

/** The admin database; every access goes through read() or write() so failures map to 503. */
export class AdminDb {
  private constructor(
    private readonly db: Database,
    readonly path: string,
  ) {}

  /** Opens (creating) the database in dataDir and applies pending migrations. */
  static open(dataDir: string): AdminDb {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 })
    const path = join(dataDir, ADMIN_DB_FILE)
    const db = new Database(path, { create: true, strict: true })
    // The busy timeout first: setting the journal mode takes a lock another connection may hold.
    db.run(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`)
    db.run('PRAGMA journal_mode = WAL')
    db.run('PRAGMA foreign_keys = ON')
    // Overwrite freed pages with zeros so a deleted key's sealed bytes do not linger in the file.
    db.run('PRAGMA secure_delete = ON')
    const admin = new AdminDb(db, path)
    admin.migrate()
    return admin
  }

  /**
   * Opens an existing database read-only, as it is, without migrating it (for `perpd-admin audit
   * verify`, which needs no running service). Throws when there is no database in dataDir.
   */
  static openReadOnly(dataDir: string): AdminDb {
    const path = join(dataDir, ADMIN_DB_FILE)
    const db = new Database(path, { readonly: true, strict: true })
    db.run(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`)
    return new AdminDb(db, path)
  }

  /** PRAGMA user_version: the schema version of the database. */
  schemaVersion(): number {
    return this.read((d) => (d.query('PRAGMA user_version').get() as { user_version: number }).user_version)
  }

  private migrate(): void {
    const current = (this.db.query('PRAGMA user_version').get() as { user_version: number }).user_version
    for (const m of MIGRATIONS) {
      if (m.version <= current) continue
      this.db
        .transaction(() => {
          this.db.run(m.sql)
          m.run?.(this.db)
          this.db.run(`PRAGMA user_version = ${m.version}`)
        })
        .immediate()
    }
  }

  /** Reads with the raw handle; SQLite availability failures become DatabaseUnavailableError. */
  read<T>(fn: (db: Database) => T): T {
    return guarded(() => fn(this.db))
  }

  /** Runs fn in one IMMEDIATE transaction (all or nothing), mapping availability failures. */
  write<T>(fn: (db: Database) => T): T {
    return guarded(() => this.db.transaction(() => fn(this.db)).immediate())
  }

  /** A value of the meta table. */
  meta(key: string): string | undefined {
    return this.read((db) => (db.query('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | null)?.value)
  }

  /** Sets a value of the meta table. */
  setMeta(key: string, value: string): void {
    this.write((db) =>
      db.query('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(key, value),
    )
  }

  close(): void {
    this.db.close()
  }
}

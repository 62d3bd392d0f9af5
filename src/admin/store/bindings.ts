// Service bindings (docs/admin.md#bindings): which stored key each operator component signs with,
// and whether it runs. Changes are written with their audit row in one transaction.
import { appendAudit } from './audit.ts'
import type { AdminDb } from './db.ts'

/** The components a key can be bound to, in the order the API lists them. */
export const SERVICE_NAMES = ['oracle', 'liquidator', 'hedger', 'bridge_deposit', 'bridge_withdraw'] as const
/** One of SERVICE_NAMES. */
export type ServiceName = (typeof SERVICE_NAMES)[number]

/** Whether s names a bindable service. */
export function isServiceName(s: string): s is ServiceName {
  return (SERVICE_NAMES as readonly string[]).includes(s)
}

/** One binding as the API shows it. */
export interface Binding {
  readonly key_id: string | null
  readonly address: string | null
  readonly enabled: boolean
}

const UNBOUND: Binding = { key_id: null, address: null, enabled: false }

/** The service_bindings table. */
export class BindingStore {
  constructor(
    private readonly db: AdminDb,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Every service's binding; a service never configured is unbound and disabled. */
  all(): Record<ServiceName, Binding> {
    const rows = this.db.read((d) =>
      d.query('SELECT b.service, b.key_id, k.address, b.enabled FROM service_bindings b LEFT JOIN keys k ON k.id = b.key_id').all(),
    ) as { service: string; key_id: string | null; address: string | null; enabled: number }[]
    const out = Object.fromEntries(SERVICE_NAMES.map((s) => [s, UNBOUND])) as Record<ServiceName, Binding>
    for (const r of rows) {
      if (isServiceName(r.service)) out[r.service] = { key_id: r.key_id, address: r.address, enabled: r.enabled === 1 }
    }
    return out
  }

  /** The services other than `except` bound to `keyId`. */
  otherServicesOf(keyId: string, except: ServiceName): ServiceName[] {
    const rows = this.db.read((d) =>
      d.query('SELECT service FROM service_bindings WHERE key_id = ? AND service <> ? ORDER BY service').all(keyId, except),
    ) as { service: string }[]
    return rows.map((r) => r.service).filter(isServiceName)
  }

  /**
   * Binds `keyId` (or unbinds with null) and sets `enabled`; 'key-missing' when keyId names no
   * stored key, `{inUse}` when another service is bound to it (a key serves one service, so two
   * runners never share a nonce sequence; the database refuses it too). The audit row says bind
   * or unbind.
   */
  set(p: {
    service: ServiceName
    keyId: string | null
    enabled: boolean
    actor: string
  }): 'ok' | 'key-missing' | { readonly inUse: ServiceName[] } {
    const now = this.clock()
    return this.db.write((tx) => {
      let address: string | null = null
      if (p.keyId !== null) {
        const key = tx.query('SELECT address FROM keys WHERE id = ?').get(p.keyId) as { address: string } | null
        if (key === null) return 'key-missing' as const
        address = key.address
        const others = (
          tx.query('SELECT service FROM service_bindings WHERE key_id = ? AND service <> ? ORDER BY service').all(p.keyId, p.service) as {
            service: string
          }[]
        )
          .map((r) => r.service)
          .filter(isServiceName)
        if (others.length > 0) return { inUse: others }
      }
      tx.query(`INSERT INTO service_bindings (service, key_id, enabled, updated_at_ms, updated_by) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT(service) DO UPDATE SET key_id = excluded.key_id, enabled = excluded.enabled,
                updated_at_ms = excluded.updated_at_ms, updated_by = excluded.updated_by`).run(
        p.service,
        p.keyId,
        p.enabled ? 1 : 0,
        now,
        p.actor,
      )
      appendAudit(tx, {
        atMs: now,
        actor: p.actor,
        action: p.keyId === null ? 'service.unbind' : 'service.bind',
        target: p.service,
        detail: { key_id: p.keyId, address, enabled: p.enabled },
      })
      return 'ok' as const
    })
  }
}

// Services: each component's binding (which key it signs with, enabled) and its runner's live
// state, polled from GET /api/service-config; binding and unbinding with PUT.
import { useState } from 'preact/hooks'
import type { KeyEntry, RunnerStatus } from '../../../wire/admin-replies.ts'
import { describeError } from '../api.ts'
import { fmtMs, type Note, NoteLine, Panel, Table, useCall, useLoad } from '../ui.tsx'

/** One service of GET /api/service-config. */
export interface ServiceEntry {
  readonly key_id: string | null
  readonly address: string | null
  readonly enabled: boolean
  readonly status: RunnerStatus
}

export type ServiceConfig = { services: Record<string, ServiceEntry> }

/** How often the states are read again. */
export const STATUS_POLL_MS = 3_000

export function ServicesScreen() {
  const call = useCall()
  const config = useLoad(() => call<ServiceConfig>('GET', '/api/service-config'), [call], STATUS_POLL_MS)
  const keys = useLoad(() => call<{ keys: KeyEntry[] }>('GET', '/api/keys'), [call])
  const [note, setNote] = useState<Note | undefined>()
  const rows = Object.entries(config.value?.services ?? {})
  return (
    <Panel title="Services" testId="services-panel" actions={<span class="muted">states refresh every {STATUS_POLL_MS / 1000} s</span>}>
      <NoteLine note={config.error === undefined ? note : { kind: 'error', text: config.error }} testId="services-note" />
      <Table
        testId="services-table"
        rows={rows}
        rowKey={([name]) => name}
        empty="Loading…"
        columns={[
          { title: 'Service', render: ([name]) => <strong>{name}</strong> },
          {
            title: 'State',
            render: ([name, s]) => (
              <span class={`state state-${s.status.state}`} data-testid={`state-${name}`}>
                {s.status.state}
              </span>
            ),
          },
          { title: 'Key', render: ([, s]) => (s.address === null ? '—' : <code>{s.address}</code>) },
          { title: 'Cycles', render: ([, s]) => String(s.status.cycles) },
          { title: 'Last success', render: ([, s]) => fmtMs(s.status.last_success_ms) },
          { title: 'Last error', render: ([, s]) => <span class="error-text">{s.status.last_error ?? '—'}</span> },
          {
            title: 'Binding',
            render: ([name, s]) => (
              <BindingForm
                service={name}
                entry={s}
                keys={keys.value?.keys ?? []}
                onDone={(n) => {
                  setNote(n)
                  config.reload()
                  keys.reload()
                }}
              />
            ),
          },
        ]}
      />
    </Panel>
  )
}

function BindingForm({
  service,
  entry,
  keys,
  onDone,
}: {
  service: string
  entry: ServiceEntry
  keys: readonly KeyEntry[]
  onDone: (note: Note) => void
}) {
  const call = useCall()
  const [keyId, setKeyId] = useState(entry.key_id ?? '')
  const [enabled, setEnabled] = useState(entry.key_id === null ? true : entry.enabled)
  const [busy, setBusy] = useState(false)
  const apply = async (e: Event) => {
    e.preventDefault()
    setBusy(true)
    try {
      const r = await call<{ status: RunnerStatus }>('PUT', '/api/service-config', {
        service,
        key_id: keyId === '' ? null : keyId,
        enabled,
      })
      onDone({ kind: 'ok', text: `${service}: ${keyId === '' ? 'unbound' : 'bound'}, now ${r.status.state}.` })
    } catch (err) {
      onDone({ kind: 'error', text: `${service}: ${describeError(err)}` })
    } finally {
      setBusy(false)
    }
  }
  return (
    <form class="inline-form" onSubmit={apply} data-testid={`bind-${service}`}>
      <select value={keyId} onChange={(e) => setKeyId(e.currentTarget.value)} data-testid={`bind-key-${service}`}>
        <option value="">none (unbound)</option>
        {keys.map((k) => (
          <option key={k.id} value={k.id}>
            {k.label} {k.address.slice(0, 10)}…
          </option>
        ))}
      </select>
      <label class="check">
        <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} />
        enabled
      </label>
      <button type="submit" disabled={busy} data-testid={`bind-apply-${service}`}>
        Apply
      </button>
    </form>
  )
}

// Withdrawals: the bridge withdraw runner's state and figures (its status in GET /api/service-config)
// and its rows, what it is paying out, settled, refunded or flagged (GET /api/bridge/withdrawals).
import { useState } from 'preact/hooks'
import { cell, fmtMs, NoteLine, Panel, Table, useCall, useLoad } from '../ui.tsx'
import { type ServiceConfig, STATUS_POLL_MS } from './services.tsx'

interface WithdrawalRow {
  readonly chain: string
  readonly withdrawal_id: number
  readonly account: string
  readonly destination: string
  readonly amount: string
  readonly status: string
  readonly external_tx: string | null
  readonly tx_hash: string | null
  readonly height: number | null
  readonly reason: string | null
  readonly updated_at_ms: number
}

const STATUSES = ['payout_requested', 'paid', 'payout_failed', 'settled', 'refunded', 'dropped', 'alert']
/** Figures of the runner's status detail shown as a list (the rest stays in the JSON). */
const FIGURES = ['settlement_paused', 'payout', 'network', 'scan_height', 'pending_last_cycle', 'claimed', 'paid', 'settled', 'refunded']

export function WithdrawalsScreen() {
  const call = useCall()
  const [status, setStatus] = useState('')
  const config = useLoad(() => call<ServiceConfig>('GET', '/api/service-config'), [call], STATUS_POLL_MS)
  const rows = useLoad(
    () => call<{ withdrawals: WithdrawalRow[] }>('GET', `/api/bridge/withdrawals?limit=200${status === '' ? '' : `&status=${status}`}`),
    [call, status],
    STATUS_POLL_MS,
  )
  const runner = config.value?.services.bridge_withdraw
  const detail = runner?.status.detail ?? {}
  const alerts = Array.isArray(detail.alerts) ? (detail.alerts as Record<string, unknown>[]) : []
  return (
    <>
      <Panel title="Bridge withdraw runner" testId="withdraw-runner-panel">
        <NoteLine note={config.error === undefined ? undefined : { kind: 'error', text: config.error }} />
        {runner === undefined ? (
          <p class="empty">Loading…</p>
        ) : (
          <>
            <dl class="figures">
              <dt>state</dt>
              <dd>
                <span class={`state state-${runner.status.state}`} data-testid="withdraw-runner-state">
                  {runner.status.state}
                </span>
              </dd>
              <dt>key</dt>
              <dd>{runner.address ?? 'none bound'}</dd>
              <dt>last error</dt>
              <dd class="error-text">{runner.status.last_error ?? '—'}</dd>
              {FIGURES.filter((f) => f in detail).map((f) => [
                <dt key={`t${f}`}>{f.replaceAll('_', ' ')}</dt>,
                <dd key={`d${f}`}>{cell(detail[f])}</dd>,
              ])}
            </dl>
            {alerts.length > 0 && (
              <>
                <h3>Alerts: a person must check these accounts and the treasury</h3>
                <Table
                  rows={alerts}
                  rowKey={(a) => String(a.withdrawal_id)}
                  empty=""
                  columns={['withdrawal_id', 'account', 'destination', 'amount', 'external_tx', 'reason', 'at_ms'].map((k) => ({
                    title: k,
                    render: (a: Record<string, unknown>) => (k === 'at_ms' ? fmtMs(a[k] as number) : cell(a[k])),
                  }))}
                />
              </>
            )}
          </>
        )}
      </Panel>
      <Panel
        title="Withdrawals handled by the runner"
        testId="withdrawals-panel"
        actions={
          <label>
            state{' '}
            <select value={status} onChange={(e) => setStatus(e.currentTarget.value)} data-testid="withdrawals-status">
              <option value="">all</option>
              {STATUSES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </label>
        }
      >
        <p class="muted">
          payout_requested → paid → settled; payout_failed → refunded; dropped and alert are final. Pending withdrawals the runner has not
          claimed yet are on the chain only.
        </p>
        <NoteLine note={rows.error === undefined ? undefined : { kind: 'error', text: rows.error }} />
        <Table
          testId="withdrawals-table"
          rows={rows.value?.withdrawals ?? []}
          rowKey={(w) => `${w.chain}:${w.withdrawal_id}`}
          empty={rows.value === undefined ? 'Loading…' : 'No withdrawal handled yet.'}
          columns={[
            { title: 'Id', render: (w) => String(w.withdrawal_id) },
            { title: 'State', render: (w) => <span class={`state state-${w.status}`}>{w.status}</span> },
            { title: 'Account', render: (w) => <code>{w.account}</code> },
            { title: 'Destination', render: (w) => <code>{w.destination}</code> },
            { title: 'Amount', render: (w) => w.amount },
            { title: 'External tx', render: (w) => cell(w.external_tx) },
            { title: 'Tx (height)', render: (w) => (w.tx_hash === null ? '—' : `${w.tx_hash.slice(0, 12)}… (${w.height ?? '?'})`) },
            { title: 'Reason', render: (w) => cell(w.reason) },
            { title: 'Updated', render: (w) => fmtMs(w.updated_at_ms) },
            { title: 'Chain', render: (w) => <code title={w.chain}>{w.chain.slice(0, 10)}…</code> },
          ]}
        />
      </Panel>
    </>
  )
}

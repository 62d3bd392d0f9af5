// Hedging: the venue accounts (keys uploaded encrypted), the per-market policies, the global
// config, the orders (filters and pages), reconciliation and Book B's stats (the chain's net
// position per market, which the hedger offsets on the venue).
import { useState } from 'preact/hooks'
import { encryptPrivateKey } from '../key-encryption.ts'
import { cell, fmtMs, NoteLine, Panel, Table, useAction, useCall, useLoad } from '../ui.tsx'

interface HedgeAccount {
  readonly id: string
  readonly name: string
  readonly address: string
  readonly enabled: boolean
  readonly updated_at_ms: number
  readonly updated_by: string
  readonly margin: { account_value: string; withdrawable: string; updated_at_ms: number } | null
}

interface HedgePolicy {
  readonly market_symbol: string
  readonly hedge_ratio: string
  readonly hedge_mode: string
  readonly enabled: boolean
  readonly threshold_notional: string | null
  readonly min_order_sz: string | null
  readonly max_order_sz: string | null
  readonly updated_at_ms: number
  readonly updated_by: string
}

interface HedgeOrder {
  readonly id: number
  readonly account_id: string
  readonly market_symbol: string
  readonly coin: string
  readonly is_buy: boolean
  readonly sz: string
  readonly px: string
  readonly delta_before: string
  readonly ext_oid: string | null
  readonly status: string
  readonly error: string | null
  readonly created_at_ms: number
}

interface BookBStats {
  readonly height: number
  readonly fetched_at_ms: number
  readonly markets: {
    symbol: string
    market_id: number
    lifecycle: string
    emergency_halt: boolean
    mark_price: string
    stats: { long_size: string; short_size: string; net_size: string; block_height: number } | null
    detail_error: string | null
  }[]
  readonly totals: { markets_with_stats: number; markets_failed: number }
}

export function HedgingScreen() {
  const call = useCall()
  const accounts = useLoad(() => call<{ accounts: HedgeAccount[] }>('GET', '/api/hedge/accounts'), [call])
  return (
    <>
      <AccountsPanel accounts={accounts.value?.accounts} error={accounts.error} reload={accounts.reload} />
      <PoliciesPanel />
      <ConfigPanel />
      <OrdersPanel accounts={accounts.value?.accounts ?? []} />
      <BookBPanel />
    </>
  )
}

function AccountsPanel({
  accounts,
  error,
  reload,
}: {
  accounts: HedgeAccount[] | undefined
  error: string | undefined
  reload: () => void
}) {
  const call = useCall()
  const [note, act, busy] = useAction()
  const [name, setName] = useState('')
  const [secret, setSecret] = useState('')
  const add = (e: Event) => {
    e.preventDefault()
    void act(async () => {
      const { public_key, address: _address, ...ciphertext } = await encryptPrivateKey(secret)
      setSecret('')
      const r = await call<{ account: HedgeAccount }>('POST', '/api/hedge/accounts', { name, ciphertext, public_key })
      setName('')
      reload()
      return `Added the hedge account ${r.account.name} (${r.account.address}).`
    })
  }
  const toggle = (a: HedgeAccount) =>
    act(async () => {
      await call('PUT', `/api/hedge/accounts/${encodeURIComponent(a.id)}`, { enabled: !a.enabled })
      reload()
      return `${a.name} ${a.enabled ? 'disabled' : 'enabled'}.`
    })
  const remove = (a: HedgeAccount) =>
    act(async () => {
      await call('DELETE', `/api/hedge/accounts/${encodeURIComponent(a.id)}`)
      reload()
      return `Deleted the hedge account ${a.name}.`
    })
  return (
    <Panel
      title="Hedge accounts"
      testId="hedge-accounts-panel"
      actions={
        <button type="button" onClick={reload}>
          Refresh
        </button>
      }
    >
      <NoteLine note={error === undefined ? note : { kind: 'error', text: error }} testId="hedge-accounts-note" />
      <Table
        testId="hedge-accounts-table"
        rows={accounts ?? []}
        rowKey={(a) => a.id}
        empty={accounts === undefined ? 'Loading…' : 'No hedge account yet.'}
        columns={[
          { title: 'Name', render: (a) => a.name },
          { title: 'Venue address', render: (a) => <code>{a.address}</code> },
          { title: 'Enabled', render: (a) => (a.enabled ? 'yes' : 'no') },
          { title: 'Account value', render: (a) => a.margin?.account_value ?? '—' },
          { title: 'Withdrawable', render: (a) => a.margin?.withdrawable ?? '—' },
          { title: 'Updated', render: (a) => `${fmtMs(a.updated_at_ms)} by ${a.updated_by}` },
          {
            title: '',
            render: (a) => (
              <span class="buttons">
                <button type="button" onClick={() => toggle(a)}>
                  {a.enabled ? 'Disable' : 'Enable'}
                </button>
                <button type="button" class="danger" onClick={() => remove(a)}>
                  Delete
                </button>
              </span>
            ),
          },
        ]}
      />
      <form class="row-form" onSubmit={add}>
        <label>
          Name
          <input value={name} onInput={(e) => setName(e.currentTarget.value)} maxLength={64} required data-testid="hedge-account-name" />
        </label>
        <label class="grow">
          Venue private key (encrypted in this page)
          <input
            type="password"
            autocomplete="off"
            value={secret}
            onInput={(e) => setSecret(e.currentTarget.value)}
            required
            data-testid="hedge-account-secret"
          />
        </label>
        <button type="submit" class="primary" disabled={busy} data-testid="hedge-account-add">
          Encrypt and add
        </button>
      </form>
    </Panel>
  )
}

const EMPTY_POLICY = {
  market_symbol: '',
  hedge_ratio: '1',
  hedge_mode: 'follow',
  enabled: true,
  threshold_notional: '',
  min_order_sz: '',
  max_order_sz: '',
}

function PoliciesPanel() {
  const call = useCall()
  const policies = useLoad(() => call<{ policies: HedgePolicy[] }>('GET', '/api/hedge/policies'), [call])
  const [note, act, busy] = useAction()
  const [form, setForm] = useState(EMPTY_POLICY)
  const set = (k: keyof typeof EMPTY_POLICY, v: string | boolean) => setForm({ ...form, [k]: v })
  const optional = (v: string) => (v.trim() === '' ? null : v.trim())
  const save = (e: Event) => {
    e.preventDefault()
    void act(async () => {
      await call('PUT', '/api/hedge/policies', {
        market_symbol: form.market_symbol.trim(),
        hedge_ratio: form.hedge_ratio.trim(),
        hedge_mode: form.hedge_mode,
        enabled: form.enabled,
        threshold_notional: optional(form.threshold_notional),
        min_order_sz: optional(form.min_order_sz),
        max_order_sz: optional(form.max_order_sz),
      })
      policies.reload()
      return `Saved the policy of ${form.market_symbol}.`
    })
  }
  const remove = (p: HedgePolicy) =>
    act(async () => {
      await call('DELETE', `/api/hedge/policies/${encodeURIComponent(p.market_symbol)}`)
      policies.reload()
      return `Deleted the policy of ${p.market_symbol}.`
    })
  const edit = (p: HedgePolicy) =>
    setForm({
      market_symbol: p.market_symbol,
      hedge_ratio: p.hedge_ratio,
      hedge_mode: p.hedge_mode,
      enabled: p.enabled,
      threshold_notional: p.threshold_notional ?? '',
      min_order_sz: p.min_order_sz ?? '',
      max_order_sz: p.max_order_sz ?? '',
    })
  return (
    <Panel title="Policies" testId="hedge-policies-panel">
      <NoteLine note={policies.error === undefined ? note : { kind: 'error', text: policies.error }} testId="hedge-policies-note" />
      <Table
        testId="hedge-policies-table"
        rows={policies.value?.policies ?? []}
        rowKey={(p) => p.market_symbol}
        empty={policies.value === undefined ? 'Loading…' : 'No policy yet.'}
        columns={[
          { title: 'Market', render: (p) => <strong>{p.market_symbol}</strong> },
          { title: 'Ratio', render: (p) => p.hedge_ratio },
          { title: 'Mode', render: (p) => p.hedge_mode },
          { title: 'Enabled', render: (p) => (p.enabled ? 'yes' : 'no') },
          { title: 'Threshold', render: (p) => cell(p.threshold_notional) },
          { title: 'Min / max size', render: (p) => `${cell(p.min_order_sz)} / ${cell(p.max_order_sz)}` },
          { title: 'Updated', render: (p) => `${fmtMs(p.updated_at_ms)} by ${p.updated_by}` },
          {
            title: '',
            render: (p) => (
              <span class="buttons">
                <button type="button" onClick={() => edit(p)}>
                  Edit
                </button>
                <button type="button" class="danger" onClick={() => remove(p)}>
                  Delete
                </button>
              </span>
            ),
          },
        ]}
      />
      <form class="row-form" onSubmit={save} data-testid="hedge-policy-form">
        <label>
          Market
          <input value={form.market_symbol} onInput={(e) => set('market_symbol', e.currentTarget.value)} placeholder="BTC-USD" required />
        </label>
        <label>
          Ratio
          <input value={form.hedge_ratio} onInput={(e) => set('hedge_ratio', e.currentTarget.value)} size={6} required />
        </label>
        <label>
          Mode
          <select value={form.hedge_mode} onChange={(e) => set('hedge_mode', e.currentTarget.value)}>
            <option value="follow">follow</option>
            <option value="reverse">reverse</option>
          </select>
        </label>
        <label>
          Threshold
          <input
            value={form.threshold_notional}
            onInput={(e) => set('threshold_notional', e.currentTarget.value)}
            size={8}
            placeholder="global"
          />
        </label>
        <label>
          Min size
          <input value={form.min_order_sz} onInput={(e) => set('min_order_sz', e.currentTarget.value)} size={8} placeholder="global" />
        </label>
        <label>
          Max size
          <input value={form.max_order_sz} onInput={(e) => set('max_order_sz', e.currentTarget.value)} size={8} placeholder="none" />
        </label>
        <label class="check">
          <input type="checkbox" checked={form.enabled} onChange={(e) => set('enabled', e.currentTarget.checked)} />
          enabled
        </label>
        <button type="submit" class="primary" disabled={busy} data-testid="hedge-policy-save">
          Save policy
        </button>
      </form>
    </Panel>
  )
}

/** Fields of the global config a person edits (the others are its audit fields). */
const CONFIG_FIELDS = ['interval_ms', 'threshold_notional', 'min_order_sz', 'max_slippage_bps', 'dry_run', 'ext_network'] as const

function ConfigPanel() {
  const call = useCall()
  const config = useLoad(() => call<Record<string, unknown>>('GET', '/api/hedge/config'), [call])
  const [edits, setEdits] = useState<Record<string, unknown>>({})
  const [note, act, busy] = useAction()
  const current = config.value
  const shown = (k: string) => (k in edits ? edits[k] : current?.[k])
  const save = (e: Event) => {
    e.preventDefault()
    void act(async () => {
      const body: Record<string, unknown> = {}
      for (const [k, v] of Object.entries(edits)) body[k] = typeof current?.[k] === 'number' ? Number(v) : v
      await call('PUT', '/api/hedge/config', body)
      setEdits({})
      config.reload()
      return Object.keys(body).length === 0 ? 'Nothing changed.' : `Saved ${Object.keys(body).join(', ')}.`
    })
  }
  return (
    <Panel title="Global config" testId="hedge-config-panel">
      <NoteLine note={config.error === undefined ? note : { kind: 'error', text: config.error }} testId="hedge-config-note" />
      {current === undefined ? (
        <p class="empty">Loading…</p>
      ) : (
        <form class="row-form" onSubmit={save}>
          {CONFIG_FIELDS.filter((k) => k in current).map((k) =>
            typeof current[k] === 'boolean' ? (
              <label key={k} class="check">
                <input type="checkbox" checked={shown(k) === true} onChange={(e) => setEdits({ ...edits, [k]: e.currentTarget.checked })} />
                {k}
              </label>
            ) : k === 'ext_network' ? (
              <label key={k}>
                {k}
                <select value={String(shown(k))} onChange={(e) => setEdits({ ...edits, [k]: e.currentTarget.value })}>
                  <option value="mainnet">mainnet</option>
                  <option value="testnet">testnet</option>
                </select>
              </label>
            ) : (
              <label key={k}>
                {k}
                <input
                  value={String(shown(k))}
                  onInput={(e) => setEdits({ ...edits, [k]: e.currentTarget.value })}
                  size={10}
                  data-testid={`hedge-config-${k}`}
                />
              </label>
            ),
          )}
          <button type="submit" class="primary" disabled={busy} data-testid="hedge-config-save">
            Save config
          </button>
          <span class="muted">
            last changed {fmtMs(current.updated_at_ms as number)} by {cell(current.updated_by)}
          </span>
        </form>
      )}
    </Panel>
  )
}

const ORDER_PAGE_SIZES = [20, 50, 100]

function OrdersPanel({ accounts }: { accounts: readonly HedgeAccount[] }) {
  const call = useCall()
  const [accountId, setAccountId] = useState('')
  const [symbol, setSymbol] = useState('')
  const [limit, setLimit] = useState(50)
  const [offset, setOffset] = useState(0)
  const query = new URLSearchParams({ limit: String(limit), offset: String(offset) })
  if (accountId !== '') query.set('account_id', accountId)
  if (symbol.trim() !== '') query.set('symbol', symbol.trim())
  const orders = useLoad(
    () => call<{ orders: HedgeOrder[]; total: number; offset: number; limit: number }>('GET', `/api/hedge/orders?${query}`),
    [call, query.toString()],
  )
  const [note, act, busy] = useAction()
  const reconcile = () =>
    act(async () => {
      await call('POST', '/api/hedge/orders/reconcile')
      orders.reload()
      return 'Reconciliation with the venue started; refresh to see its outcome.'
    })
  const total = orders.value?.total ?? 0
  const names = new Map(accounts.map((a) => [a.id, a.name]))
  return (
    <Panel
      title="Orders"
      testId="hedge-orders-panel"
      actions={
        <>
          <button type="button" onClick={orders.reload}>
            Refresh
          </button>
          <button type="button" class="primary" disabled={busy} onClick={reconcile} data-testid="hedge-reconcile">
            Reconcile with the venue
          </button>
        </>
      }
    >
      <NoteLine note={orders.error === undefined ? note : { kind: 'error', text: orders.error }} testId="hedge-orders-note" />
      <form class="row-form" onSubmit={(e) => e.preventDefault()}>
        <label>
          Account
          <select
            value={accountId}
            onChange={(e) => {
              setAccountId(e.currentTarget.value)
              setOffset(0)
            }}
            data-testid="hedge-orders-account"
          >
            <option value="">all</option>
            {accounts.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Market
          <input
            value={symbol}
            onChange={(e) => {
              setSymbol(e.currentTarget.value)
              setOffset(0)
            }}
            placeholder="all"
            size={10}
            data-testid="hedge-orders-symbol"
          />
        </label>
        <label>
          Rows
          <select
            value={String(limit)}
            onChange={(e) => {
              setLimit(Number(e.currentTarget.value))
              setOffset(0)
            }}
          >
            {ORDER_PAGE_SIZES.map((n) => (
              <option key={n} value={String(n)}>
                {n}
              </option>
            ))}
          </select>
        </label>
        <span class="muted" data-testid="hedge-orders-range">
          {total === 0 ? 'no orders' : `${offset + 1}–${Math.min(offset + limit, total)} of ${total}`}
        </span>
        <button type="button" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - limit))}>
          Previous
        </button>
        <button type="button" disabled={offset + limit >= total} onClick={() => setOffset(offset + limit)}>
          Next
        </button>
      </form>
      <Table
        testId="hedge-orders-table"
        rows={orders.value?.orders ?? []}
        rowKey={(o) => String(o.id)}
        empty={orders.value === undefined ? 'Loading…' : 'No orders match.'}
        columns={[
          { title: 'Id', render: (o) => String(o.id) },
          { title: 'Time', render: (o) => fmtMs(o.created_at_ms) },
          { title: 'Account', render: (o) => names.get(o.account_id) ?? o.account_id },
          { title: 'Market', render: (o) => `${o.market_symbol} (${o.coin})` },
          { title: 'Side', render: (o) => (o.is_buy ? 'buy' : 'sell') },
          { title: 'Size @ price', render: (o) => `${o.sz} @ ${o.px}` },
          { title: 'Delta before', render: (o) => o.delta_before },
          { title: 'Status', render: (o) => <span class={`state state-${o.status}`}>{o.status}</span> },
          { title: 'Venue id', render: (o) => cell(o.ext_oid) },
          { title: 'Error', render: (o) => <span class="error-text">{cell(o.error)}</span> },
        ]}
      />
    </Panel>
  )
}

function BookBPanel() {
  const call = useCall()
  const stats = useLoad(() => call<BookBStats>('GET', '/api/hedge/book-b-stats'), [call])
  const v = stats.value
  return (
    <Panel
      title="Book B stats"
      testId="hedge-bookb-panel"
      actions={
        <button type="button" onClick={stats.reload}>
          Refresh
        </button>
      }
    >
      <NoteLine note={stats.error === undefined ? undefined : { kind: 'error', text: stats.error }} testId="hedge-bookb-note" />
      {v !== undefined && (
        <p class="muted" data-testid="hedge-bookb-summary">
          height {v.height}, read {fmtMs(v.fetched_at_ms)}: {v.totals.markets_with_stats} markets with stats, {v.totals.markets_failed}{' '}
          failed
        </p>
      )}
      <Table
        testId="hedge-bookb-table"
        rows={v?.markets ?? []}
        rowKey={(m) => String(m.market_id)}
        empty={v === undefined ? 'Loading…' : 'No markets.'}
        columns={[
          { title: 'Market', render: (m) => `${m.symbol} (#${m.market_id})` },
          { title: 'Lifecycle', render: (m) => `${m.lifecycle}${m.emergency_halt ? ', halted' : ''}` },
          { title: 'Mark', render: (m) => m.mark_price },
          { title: 'Long', render: (m) => m.stats?.long_size ?? '—' },
          { title: 'Short', render: (m) => m.stats?.short_size ?? '—' },
          { title: 'Net', render: (m) => <strong>{m.stats?.net_size ?? '—'}</strong> },
          { title: 'Error', render: (m) => <span class="error-text">{cell(m.detail_error)}</span> },
        ]}
      />
    </Panel>
  )
}

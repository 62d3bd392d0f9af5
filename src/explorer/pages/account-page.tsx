// An account's screen: balances and margin, positions and open orders from the chain state
// (getAccount, getAccountOrders; refreshed every few seconds), and its history from the index:
// fills, fund flows (every balance movement outside trading) and bridge flows.
import type { ComponentChildren } from 'preact'
import { type BridgeFlow, type FillRecord, type FundFlow, getJson, type Page, qs, query } from '../api.ts'
import { amount, short, signClass, time } from '../format.ts'
import { useLoad } from '../hooks.ts'
import { Failure, Loading } from '../parts/status.tsx'
import { href } from '../router.ts'

const REFRESH_MS = 3_000
const HISTORY_ROWS = 25

export function AccountPage({ address }: { address: string }) {
  const state = useLoad(
    async () => {
      const [account, orders] = await Promise.all([query('getAccount', { address }), query('getAccountOrders', { address })])
      return { account, orders }
    },
    [address],
    REFRESH_MS,
  )
  if (state.data === undefined) return state.error ? <Failure error={state.error} /> : <Loading />
  const { account, orders } = state.data
  const positions = Object.values(account.positions)
  return (
    <section class="account">
      <h1>
        Account <span class="mono">{account.address}</span>
      </h1>
      {!account.exists && <p class="empty">The chain has no state for this address yet.</p>}
      {state.error && <Failure error={state.error} />}
      <dl class="stats">
        {(
          [
            ['Balance', account.balance],
            ['Account value', account.account_value],
            ['Margin used', account.total_margin_used],
            ['Notional', account.total_notional],
            ['Withdrawable', account.withdrawable],
          ] as const
        ).map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{amount(value)}</dd>
          </div>
        ))}
        <div>
          <dt>Roles</dt>
          <dd>{account.roles.join(', ') || '—'}</dd>
        </div>
        <div>
          <dt>Nonce</dt>
          <dd>{account.nonce}</dd>
        </div>
        {account.agent_of !== null && (
          <div>
            <dt>Agent of</dt>
            <dd>
              <a href={href.account(account.agent_of)}>{short(account.agent_of)}</a>
            </dd>
          </div>
        )}
      </dl>

      <Panel title={`Positions (${positions.length})`}>
        {positions.length === 0 ? (
          <p class="empty">No open positions.</p>
        ) : (
          <table class="positions">
            <thead>
              <tr>
                <th>Market</th>
                <th class="num">Size</th>
                <th class="num">Entry</th>
                <th class="num">Mark</th>
                <th class="num">Notional</th>
                <th class="num">Unrealized PnL</th>
                <th class="num">Realized PnL</th>
                <th class="num">Margin</th>
                <th class="num">Liq. price</th>
              </tr>
            </thead>
            <tbody>
              {positions.map((p) => (
                <tr key={p.market_id}>
                  <td>
                    <a href={href.market(p.symbol)}>{p.symbol}</a> {p.leverage}× {p.margin_mode}
                  </td>
                  <td class={`num ${signClass(p.size)}`}>{amount(p.size)}</td>
                  <td class="num">{amount(p.entry_vwap)}</td>
                  <td class="num">{amount(p.mark_price)}</td>
                  <td class="num">{amount(p.notional)}</td>
                  <td class={`num ${signClass(p.unrealized_pnl)}`}>{amount(p.unrealized_pnl)}</td>
                  <td class={`num ${signClass(p.realized_pnl)}`}>{amount(p.realized_pnl)}</td>
                  <td class="num">{amount(p.margin_used)}</td>
                  <td class="num">{amount(p.liquidation_price)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Panel>

      <Panel title={`Open orders (${orders.length})`}>
        {orders.length === 0 ? (
          <p class="empty">No open orders.</p>
        ) : (
          <table class="orders">
            <thead>
              <tr>
                <th class="num">Order</th>
                <th>Market</th>
                <th>Side</th>
                <th class="num">Price</th>
                <th class="num">Size</th>
                <th class="num">Remaining</th>
                <th>TIF</th>
                <th class="num">Placed</th>
              </tr>
            </thead>
            <tbody>
              {orders.map((o) => (
                <tr key={o.order_id} data-order-id={o.order_id}>
                  <td class="num">{o.order_id}</td>
                  <td>{o.symbol}</td>
                  <td class={o.side === 'Bid' ? 'pos' : 'neg'}>{o.side === 'Bid' ? 'buy' : 'sell'}</td>
                  <td class="num">{amount(o.price)}</td>
                  <td class="num">{amount(o.qty)}</td>
                  <td class="num">{amount(o.remaining)}</td>
                  <td>
                    {o.tif}
                    {o.reduce_only ? ' reduce-only' : ''}
                  </td>
                  <td class="num">
                    <a href={href.block(o.placed_height)}>{o.placed_height}</a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Panel>

      <History<FillRecord>
        title="Fills"
        path="/api/v1/fills"
        account={address}
        columns={['Time (UTC)', 'Market', 'Role', 'Price', 'Size', 'Fee', 'Realized PnL', 'Block']}
        row={(f) => [
          time(f.timestamp_ms),
          f.symbol ?? String(f.market_id),
          f.is_taker ? 'taker' : 'maker',
          amount(f.price),
          amount(f.qty),
          amount(f.fee),
          <span class={signClass(f.realized_pnl)}>{amount(f.realized_pnl)}</span>,
          <a href={href.block(f.height)}>{f.height}</a>,
        ]}
      />
      <History<FundFlow>
        title="Fund flows"
        path="/api/v1/fund-flows"
        account={address}
        columns={['Time (UTC)', 'Flow', 'Amount', 'Balance after', 'Transaction']}
        row={(f) => [
          time(f.timestamp_ms),
          f.flow_type,
          <span class={signClass(f.amount)}>{amount(f.amount)}</span>,
          amount(f.balance_after),
          f.tx_hash ? <a href={href.tx(f.tx_hash)}>{short(f.tx_hash)}</a> : <a href={href.block(f.height)}>block {f.height}</a>,
        ]}
      />
      <History<BridgeFlow>
        title="Bridge flows"
        path="/api/v1/bridge-flows"
        account={address}
        columns={['Time (UTC)', 'Direction', 'Status', 'Amount', 'Reference', 'Counterparty', 'Transaction']}
        row={(f) => [
          time(f.timestamp_ms),
          f.direction,
          f.status,
          amount(f.amount),
          String(f.reference),
          String(f.counterparty ?? '—'),
          f.tx_hash ? <a href={href.tx(f.tx_hash)}>{short(f.tx_hash)}</a> : <a href={href.block(f.height)}>block {f.height}</a>,
        ]}
      />
    </section>
  )
}

function Panel({ title, children }: { title: string; children: ComponentChildren }) {
  return (
    <div class="panel wide">
      <h2>{title}</h2>
      <div class="scroll">{children}</div>
    </div>
  )
}

/** One of the account's history lists (docs/history-api.md), the newest rows, refreshed. */
function History<T>(props: {
  title: string
  path: string
  account: string
  columns: readonly string[]
  row: (r: T) => ComponentChildren[]
}) {
  const { title, path, account, columns, row } = props
  const rows = useLoad(
    () => getJson<{ data: T[]; page: Page }>(`${path}?${qs({ account, limit: HISTORY_ROWS })}`),
    [path, account],
    REFRESH_MS,
  )
  return (
    <Panel title={title}>
      {rows.error && <Failure error={rows.error} />}
      {rows.data === undefined ? (
        <p class="loading">Loading…</p>
      ) : rows.data.data.length === 0 ? (
        <p class="empty">None.</p>
      ) : (
        <table class={`history ${title.toLowerCase().replace(/ /g, '-')}`}>
          <thead>
            <tr>
              {columns.map((c) => (
                <th key={c}>{c}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.data.data.map((r, i) => (
              <tr key={i}>
                {row(r).map((cell, j) => (
                  <td key={j}>{cell}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {rows.data?.page.has_more && <p class="note">The newest {HISTORY_ROWS} shown.</p>}
    </Panel>
  )
}

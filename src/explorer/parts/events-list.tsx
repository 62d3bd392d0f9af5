// Events as the explorer lists them: kind, market, account and the body's fields.
import type { EventView } from '../api.ts'
import { href } from '../router.ts'

const ADDRESS = /^0x[0-9a-f]{40}$/
/** Body fields the other columns show already. */
const SHOWN_IN_COLUMNS = new Set(['kind', 'sub_kind', 'market_id', 'account'])

/** A body field's value: addresses link to their account page. */
function Value({ value }: { value: unknown }) {
  if (typeof value === 'string' && ADDRESS.test(value)) return <a href={href.account(value)}>{value}</a>
  if (value === null || typeof value !== 'object') return <>{String(value)}</>
  return <>{JSON.stringify(value)}</>
}

export function EventsList({ events }: { events: readonly EventView[] }) {
  if (events.length === 0) return <p class="empty">No events.</p>
  return (
    <div class="scroll">
      <table class="events">
        <thead>
          <tr>
            <th class="num">Seq</th>
            <th>Event</th>
            <th>Market</th>
            <th>Account</th>
            <th>Body</th>
          </tr>
        </thead>
        <tbody>
          {events.map((e) => (
            <tr key={e.seq} data-sub-kind={e.sub_kind}>
              <td class="num">{e.seq}</td>
              <td>
                <span class={`kind kind-${e.kind.toLowerCase()}`}>{e.kind}</span> {e.sub_kind}
              </td>
              <td>{e.symbol !== null ? <a href={href.market(e.symbol)}>{e.symbol}</a> : '—'}</td>
              <td class="mono">{e.account !== null ? <a href={href.account(e.account)}>{e.account}</a> : '—'}</td>
              <td class="body">
                {Object.entries(e.body as Record<string, unknown>)
                  .filter(([key]) => !SHOWN_IN_COLUMNS.has(key))
                  .map(([key, value]) => (
                    <span key={key} class="field">
                      <b>{key}</b> <Value value={value} />
                    </span>
                  ))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

// The envelopes (signed transactions) of a block, each with the events it caused.
import type { EnvelopeView, EventView } from '../api.ts'
import { short } from '../format.ts'
import { href } from '../router.ts'
import { EventsList } from './events-list.tsx'

/** The action's body: the one value of its `{Kind: {...}}` object. */
export function actionBody(action: unknown): unknown {
  if (action !== null && typeof action === 'object') {
    const values = Object.values(action)
    if (values.length === 1) return values[0]
  }
  return action
}

export function EnvelopeCard({ envelope, events }: { envelope: EnvelopeView; events: readonly EventView[] }) {
  return (
    <article class="envelope" data-tx={envelope.tx_hash}>
      <header>
        <span class="idx">#{envelope.envelope_idx}</span>
        <b>{envelope.action_kind}</b>
        {envelope.symbol !== null && <a href={href.market(envelope.symbol)}>{envelope.symbol}</a>}
        <span class={`status ${envelope.status}`}>{envelope.status}</span>
        <a class="mono" href={href.tx(envelope.tx_hash)} title={envelope.tx_hash}>
          {short(envelope.tx_hash, 8)}
        </a>
        <span>
          by{' '}
          <a class="mono" href={href.account(envelope.signer)}>
            {short(envelope.signer)}
          </a>{' '}
          nonce {envelope.nonce}
        </span>
      </header>
      {envelope.reason !== null && <p class="error">{JSON.stringify(envelope.reason)}</p>}
      <pre class="action">{JSON.stringify(actionBody(envelope.action))}</pre>
      <EventsList events={events} />
    </article>
  )
}

/** Envelopes in order, each with its events; the block's own events (expiries, fires, liquidations) after them. */
export function EnvelopesList({ envelopes, events }: { envelopes: readonly EnvelopeView[]; events: readonly EventView[] }) {
  const byEnvelope = new Map<number, EventView[]>()
  for (const e of events) {
    const list = byEnvelope.get(e.envelope_idx) ?? []
    list.push(e)
    byEnvelope.set(e.envelope_idx, list)
  }
  const own = events.filter((e) => !envelopes.some((env) => env.envelope_idx === e.envelope_idx))
  return (
    <>
      {envelopes.length === 0 && <p class="empty">No envelopes in this block.</p>}
      {envelopes.map((env) => (
        <EnvelopeCard key={env.envelope_idx} envelope={env} events={byEnvelope.get(env.envelope_idx) ?? []} />
      ))}
      {own.length > 0 && (
        <article class="envelope block-events">
          <header>
            <b>Events of the block itself</b>
          </header>
          <EventsList events={own} />
        </article>
      )}
    </>
  )
}

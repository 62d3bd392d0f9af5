// A block's screen: its header (GET /api/v1/blocks/{height or digest}), its envelopes and their
// events (/blocks/{height}/envelopes and /events).
import { type BlockHeader, type EnvelopeView, type EventView, getData } from '../api.ts'
import { time } from '../format.ts'
import { useLoad } from '../hooks.ts'
import { EnvelopesList } from '../parts/envelopes-list.tsx'
import { Failure, Loading } from '../parts/status.tsx'
import { href } from '../router.ts'

/** Events read with the block (the route's maximum). */
const EVENT_LIMIT = 2000

async function readBlock(id: string) {
  const header = await getData<BlockHeader>(`/api/v1/blocks/${encodeURIComponent(id)}`)
  const [envelopes, events] = await Promise.all([
    getData<EnvelopeView[]>(`/api/v1/blocks/${header.height}/envelopes`),
    getData<EventView[]>(`/api/v1/blocks/${header.height}/events?limit=${EVENT_LIMIT}`),
  ])
  return { header, envelopes, events }
}

export function BlockPage({ id }: { id: string }) {
  const block = useLoad(() => readBlock(id), [id])
  if (block.data === undefined) return block.error ? <Failure error={block.error} /> : <Loading />
  const { header, envelopes, events } = block.data
  return (
    <section class="block">
      <h1>Block {header.height}</h1>
      <nav class="pager">
        {header.height > 1 && <a href={href.block(header.height - 1)}>← {header.height - 1}</a>}
        <a href={href.block(header.height + 1)}>{header.height + 1} →</a>
      </nav>
      <dl class="kv">
        <dt>Time (UTC)</dt>
        <dd>{time(header.timestamp_ms)}</dd>
        <dt>Digest</dt>
        <dd class="mono">{header.digest}</dd>
        <dt>Parent</dt>
        <dd class="mono">{header.height > 1 ? <a href={href.block(header.height - 1)}>{header.parent}</a> : header.parent}</dd>
        <dt>State root</dt>
        <dd class="mono">{header.state_root}</dd>
        <dt>Envelopes / events</dt>
        <dd>
          {header.envelope_count} / {header.event_count}
          {events.length < header.event_count && ` (the first ${events.length} events shown)`}
        </dd>
      </dl>
      <h2>Envelopes and their events</h2>
      <EnvelopesList envelopes={envelopes} events={events} />
    </section>
  )
}

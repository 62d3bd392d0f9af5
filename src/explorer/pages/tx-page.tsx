// A transaction's screen: the envelope, its block and the events it caused (GET /api/v1/tx/{hash}).
import { getData, type TxView } from '../api.ts'
import { time } from '../format.ts'
import { useLoad } from '../hooks.ts'
import { EnvelopeCard } from '../parts/envelopes-list.tsx'
import { Failure, Loading } from '../parts/status.tsx'
import { href } from '../router.ts'

export function TxPage({ hash }: { hash: string }) {
  const tx = useLoad(() => getData<TxView>(`/api/v1/tx/${encodeURIComponent(hash)}`), [hash])
  if (tx.data === undefined) return tx.error ? <Failure error={tx.error} /> : <Loading />
  const { events, timestamp_ms, ...envelope } = tx.data
  return (
    <section class="tx">
      <h1>Transaction</h1>
      <dl class="kv">
        <dt>Hash</dt>
        <dd class="mono">{envelope.tx_hash}</dd>
        <dt>Block</dt>
        <dd>
          <a href={href.block(envelope.height)}>{envelope.height}</a> · envelope {envelope.envelope_idx} · {time(timestamp_ms)}
        </dd>
        <dt>Signer</dt>
        <dd class="mono">
          <a href={href.account(envelope.signer)}>{envelope.signer}</a>
        </dd>
        <dt>Status</dt>
        <dd>
          <span class={`status ${envelope.status}`}>{envelope.status}</span>
        </dd>
      </dl>
      <EnvelopeCard envelope={envelope} events={events} />
    </section>
  )
}

// The blocks screen: the history index's block headers, newest first, a page at a time
// (GET /api/v1/blocks with its cursor); the first page follows the chain.
import { type BlockHeader, getJson, type Page, qs } from '../api.ts'
import { short, time } from '../format.ts'
import { useLoad } from '../hooks.ts'
import { Failure, Loading } from '../parts/status.tsx'
import { href } from '../router.ts'

const PAGE_ROWS = 25
const REFRESH_MS = 2_000

export function BlocksPage({ cursor }: { cursor: string | undefined }) {
  const blocks = useLoad(
    () => getJson<{ data: BlockHeader[]; page: Page }>(`/api/v1/blocks?${qs({ limit: PAGE_ROWS, cursor })}`),
    [cursor],
    cursor === undefined ? REFRESH_MS : undefined,
  )
  if (blocks.data === undefined) return blocks.error ? <Failure error={blocks.error} /> : <Loading />
  const { data, page } = blocks.data
  return (
    <section>
      <h1>Blocks</h1>
      <div class="scroll">
        <table class="blocks">
          <thead>
            <tr>
              <th class="num">Height</th>
              <th>Time (UTC)</th>
              <th class="num">Envelopes</th>
              <th class="num">Events</th>
              <th>Digest</th>
              <th>State root</th>
            </tr>
          </thead>
          <tbody>
            {data.map((b) => (
              <tr key={b.height} data-height={b.height}>
                <td class="num">
                  <a href={href.block(b.height)}>{b.height}</a>
                </td>
                <td>{time(b.timestamp_ms)}</td>
                <td class="num">{b.envelope_count}</td>
                <td class="num">{b.event_count}</td>
                <td class="mono">{short(b.digest, 10)}</td>
                <td class="mono">{short(b.state_root, 10)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <nav class="pager">
        {cursor !== undefined && <a href={href.blocks()}>Newest</a>}
        {page.has_more && page.next_cursor != null && <a href={href.blocks(page.next_cursor)}>Older</a>}
      </nav>
    </section>
  )
}

// The audit log (GET /api/audit): newest first, in keyset pages.
import { useState } from 'preact/hooks'
import { fmtMs, NoteLine, Panel, Table, useCall, useLoad } from '../ui.tsx'

interface AuditEntry {
  readonly id: number
  readonly at_ms: number
  readonly actor: string
  readonly action: string
  readonly target: string | null
  readonly detail: Record<string, unknown>
  readonly hash: string | null
}

const PAGE_ROWS = 50

export function AuditScreen() {
  const call = useCall()
  // The before_id of each page shown so far; the last one is the current page (undefined: the newest).
  const [pages, setPages] = useState<(number | undefined)[]>([undefined])
  const beforeId = pages[pages.length - 1]
  const page = useLoad(
    () =>
      call<{ entries: AuditEntry[]; next_before_id: number | null }>(
        'GET',
        `/api/audit?limit=${PAGE_ROWS}${beforeId === undefined ? '' : `&before_id=${beforeId}`}`,
      ),
    [call, beforeId],
  )
  const next = page.value?.next_before_id ?? null
  return (
    <Panel
      title="Audit log"
      testId="audit-panel"
      actions={
        <>
          <button type="button" disabled={pages.length === 1} onClick={() => setPages([undefined])}>
            Newest
          </button>
          <button type="button" disabled={pages.length === 1} onClick={() => setPages(pages.slice(0, -1))}>
            Newer
          </button>
          <button
            type="button"
            disabled={next === null}
            onClick={() => next !== null && setPages([...pages, next])}
            data-testid="audit-older"
          >
            Older
          </button>
          <button type="button" onClick={page.reload}>
            Refresh
          </button>
        </>
      }
    >
      <p class="muted">
        Every change, refused login and money movement, hash-chained; <code>perpd-admin audit verify</code> checks the chain.
      </p>
      <NoteLine note={page.error === undefined ? undefined : { kind: 'error', text: page.error }} />
      <Table
        testId="audit-table"
        rows={page.value?.entries ?? []}
        rowKey={(e) => String(e.id)}
        empty={page.value === undefined ? 'Loading…' : 'No rows.'}
        columns={[
          { title: 'Id', render: (e) => String(e.id) },
          { title: 'Time', render: (e) => fmtMs(e.at_ms) },
          { title: 'Actor', render: (e) => <code>{e.actor}</code> },
          { title: 'Action', render: (e) => <strong>{e.action}</strong> },
          { title: 'Target', render: (e) => e.target ?? '—' },
          { title: 'Detail', render: (e) => <code class="small">{JSON.stringify(e.detail)}</code> },
        ]}
      />
    </Panel>
  )
}

// Categories: the two-level category tree, the symbol catalog with each entry's source, a sync
// from the venue (preview first, then import of the chosen codes) and the cleanup with its report.
import { useState } from 'preact/hooks'
import { cell, fmtMs, NoteLine, Panel, Table, useAction, useCall, useLoad } from '../ui.tsx'

interface Category {
  readonly id: number
  readonly code: string
  readonly name: string
  readonly parent_id: number | null
  readonly enabled: boolean
  readonly source: string
  readonly sort_order: number
  readonly children?: Category[]
}

interface CatalogEntry {
  readonly symbol: string
  readonly category: string
  readonly source: string
  readonly updated_at_ms: number
  readonly updated_by: string
}

interface PreviewItem {
  readonly code: string
  readonly name: string
  readonly parent: string | null
  readonly market_count: number
  readonly protected_count: number
  readonly current_market_count?: number
  readonly source?: string
}

interface SyncPreview {
  readonly new: PreviewItem[]
  readonly overwrite: PreviewItem[]
  readonly keep: PreviewItem[]
  readonly skip: { code: string; reason: string; market_count: number }[]
}

/** The first array among a reply's fields (the routes name their list `categories`, `entries`, …). */
function listOf<T>(reply: unknown, preferred: string): T[] {
  if (Array.isArray(reply)) return reply as T[]
  if (typeof reply !== 'object' || reply === null) return []
  const r = reply as Record<string, unknown>
  if (Array.isArray(r[preferred])) return r[preferred] as T[]
  const first = Object.values(r).find(Array.isArray)
  return (first ?? []) as T[]
}

/** Categories in tree order (each top-level one followed by its children), nested or flat replies alike. */
function treeRows(list: readonly Category[]): { category: Category; depth: number }[] {
  const flat = list.flatMap((c) => [c, ...(c.children ?? [])])
  const byParent = new Map<number | null, Category[]>()
  for (const c of flat) byParent.set(c.parent_id, [...(byParent.get(c.parent_id) ?? []), c])
  const order = (cs: Category[]) => [...cs].sort((a, b) => a.sort_order - b.sort_order || a.code.localeCompare(b.code))
  return order(byParent.get(null) ?? []).flatMap((top) => [
    { category: top, depth: 0 },
    ...order(byParent.get(top.id) ?? []).map((c) => ({ category: c, depth: 1 })),
  ])
}

export function CategoriesScreen() {
  const call = useCall()
  const categories = useLoad(() => call<unknown>('GET', '/api/market-categories'), [call])
  const [source, setSource] = useState('')
  const catalog = useLoad(() => call<unknown>('GET', `/api/market-catalog${source === '' ? '' : `?source=${source}`}`), [call, source])
  const reloadAll = () => {
    categories.reload()
    catalog.reload()
  }
  const rows = treeRows(listOf<Category>(categories.value, 'categories'))
  const [treeNote, act] = useAction()
  const toggle = (c: Category) =>
    act(async () => {
      await call('PUT', `/api/market-categories/${c.id}`, { enabled: !c.enabled })
      reloadAll()
      return `${c.code} ${c.enabled ? 'disabled' : 'enabled'}.`
    })
  const remove = (c: Category) =>
    act(async () => {
      const r = await call<{ markets_deleted?: number }>('DELETE', `/api/market-categories/${c.id}`)
      reloadAll()
      return `Deleted the category ${c.code} and its ${r.markets_deleted ?? 0} catalog markets.`
    })
  return (
    <>
      <Panel
        title="Category tree"
        testId="categories-panel"
        actions={
          <button type="button" onClick={reloadAll}>
            Refresh
          </button>
        }
      >
        <NoteLine note={categories.error === undefined ? treeNote : { kind: 'error', text: categories.error }} testId="categories-note" />
        <Table
          testId="categories-table"
          rows={rows}
          rowKey={(r) => String(r.category.id)}
          empty={categories.value === undefined ? 'Loading…' : 'No categories.'}
          columns={[
            { title: 'Code', render: (r) => <span class={`depth-${r.depth}`}>{r.category.code}</span> },
            { title: 'Name', render: (r) => r.category.name },
            { title: 'Source', render: (r) => r.category.source },
            { title: 'Enabled', render: (r) => (r.category.enabled ? 'yes' : 'no') },
            { title: 'Order', render: (r) => String(r.category.sort_order) },
            {
              title: '',
              render: (r) => (
                <span class="buttons">
                  <button type="button" onClick={() => toggle(r.category)}>
                    {r.category.enabled ? 'Disable' : 'Enable'}
                  </button>
                  <button
                    type="button"
                    class="danger"
                    onClick={() => remove(r.category)}
                    data-testid={`category-delete-${r.category.code}`}
                  >
                    Delete
                  </button>
                </span>
              ),
            },
          ]}
        />
        <NewCategory parents={rows.filter((r) => r.depth === 0).map((r) => r.category)} onDone={reloadAll} />
      </Panel>
      <SyncPanel onDone={reloadAll} />
      <CleanupPanel onDone={reloadAll} />
      <Panel
        title="Symbol catalog"
        testId="catalog-panel"
        actions={
          <label>
            source{' '}
            <select value={source} onChange={(e) => setSource(e.currentTarget.value)} data-testid="catalog-source">
              <option value="">all</option>
              <option value="ext">ext</option>
              <option value="manual">manual</option>
              <option value="seed">seed</option>
            </select>
          </label>
        }
      >
        <p class="muted">
          One category per symbol. <code>manual</code> and <code>seed</code> entries are never overwritten by a sync; <code>ext</code>{' '}
          entries come from the venue.
        </p>
        <NoteLine note={catalog.error === undefined ? undefined : { kind: 'error', text: catalog.error }} />
        <CatalogChange categories={rows.map((r) => r.category)} onDone={reloadAll} />
        <Table
          testId="catalog-table"
          rows={listOf<CatalogEntry>(catalog.value, 'markets')}
          rowKey={(e) => e.symbol}
          empty={catalog.value === undefined ? 'Loading…' : 'The catalog is empty.'}
          columns={[
            { title: 'Symbol', render: (e) => <strong>{e.symbol}</strong> },
            { title: 'Category', render: (e) => e.category },
            { title: 'Source', render: (e) => <span class={`source source-${e.source}`}>{e.source}</span> },
            { title: 'Updated', render: (e) => `${fmtMs(e.updated_at_ms)} by ${cell(e.updated_by)}` },
          ]}
        />
      </Panel>
    </>
  )
}

/** Puts symbols into a category as manual entries, or takes them out of the catalog. */
function CatalogChange({ categories, onDone }: { categories: readonly Category[]; onDone: () => void }) {
  const call = useCall()
  const [note, act, busy] = useAction()
  const [symbols, setSymbols] = useState('')
  const [categoryId, setCategoryId] = useState('')
  const change = (what: 'add' | 'remove') => (e: Event) => {
    e.preventDefault()
    const list = symbols.split(/[\s,]+/).filter((x) => x !== '')
    const target = categories.find((c) => String(c.id) === categoryId)
    if (target === undefined || list.length === 0) return
    void act(async () => {
      const r = await call<Record<string, unknown>>('POST', `/api/market-categories/${target.id}/markets`, { [what]: list })
      setSymbols('')
      onDone()
      const parts = ['added', 'moved', 'removed', 'not_in_category'].filter((k) => Array.isArray(r[k]) && (r[k] as unknown[]).length > 0)
      return `${target.code}: ${parts.map((k) => `${k.replaceAll('_', ' ')} ${(r[k] as unknown[]).map(reportItem).join(', ')}`).join('; ') || 'no change'}.`
    })
  }
  return (
    <>
      <NoteLine note={note} testId="catalog-change-note" />
      <form class="row-form" onSubmit={change('add')}>
        <label class="grow">
          Symbols (BASE-QUOTE, separated by spaces or commas)
          <input value={symbols} onInput={(e) => setSymbols(e.currentTarget.value)} data-testid="catalog-symbols" />
        </label>
        <label>
          Category
          <select value={categoryId} onChange={(e) => setCategoryId(e.currentTarget.value)} required data-testid="catalog-category">
            <option value="">choose…</option>
            {categories.map((c) => (
              <option key={c.id} value={String(c.id)}>
                {c.code}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" disabled={busy} data-testid="catalog-add">
          Put in category
        </button>
        <button type="button" class="danger" disabled={busy} onClick={change('remove')} data-testid="catalog-remove">
          Take out
        </button>
      </form>
    </>
  )
}

function NewCategory({ parents, onDone }: { parents: readonly Category[]; onDone: () => void }) {
  const call = useCall()
  const [note, act, busy] = useAction()
  const [code, setCode] = useState('')
  const [name, setName] = useState('')
  const [parentId, setParentId] = useState('')
  const create = (e: Event) => {
    e.preventDefault()
    void act(async () => {
      await call('POST', '/api/market-categories', { code, name, ...(parentId === '' ? {} : { parent_id: Number(parentId) }) })
      setCode('')
      setName('')
      onDone()
      return `Created the category ${code}.`
    })
  }
  return (
    <>
      <NoteLine note={note} testId="category-create-note" />
      <form class="row-form" onSubmit={create}>
        <label>
          Code
          <input value={code} onInput={(e) => setCode(e.currentTarget.value)} required size={12} data-testid="category-code" />
        </label>
        <label>
          Name
          <input value={name} onInput={(e) => setName(e.currentTarget.value)} required data-testid="category-name" />
        </label>
        <label>
          Under
          <select value={parentId} onChange={(e) => setParentId(e.currentTarget.value)} data-testid="category-parent">
            <option value="">top level</option>
            {parents.map((p) => (
              <option key={p.id} value={String(p.id)}>
                {p.code}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" disabled={busy} data-testid="category-create">
          Add category
        </button>
      </form>
    </>
  )
}

function SyncPanel({ onDone }: { onDone: () => void }) {
  const call = useCall()
  const [note, act, busy] = useAction()
  const [preview, setPreview] = useState<SyncPreview | undefined>()
  const [chosen, setChosen] = useState<Set<string>>(new Set())
  const [report, setReport] = useState<Record<string, unknown> | undefined>()
  const runPreview = () =>
    act(async () => {
      const p = await call<SyncPreview>('POST', '/api/market-categories/sync/preview')
      setPreview(p)
      setReport(undefined)
      // New and overwritten categories are what an import changes: chosen by default.
      setChosen(new Set([...p.new, ...p.overwrite].map((i) => i.code)))
      return `The venue offers ${p.new.length + p.overwrite.length + p.keep.length + p.skip.length} categories.`
    })
  const runImport = () =>
    act(async () => {
      const r = await call<Record<string, unknown>>('POST', '/api/market-categories/sync/import', { codes: [...chosen] })
      setReport(r)
      setPreview(undefined)
      onDone()
      return `Imported ${chosen.size} categories: ${cell(r.markets_synced)} markets synced.`
    })
  const toggle = (code: string) => {
    const next = new Set(chosen)
    if (next.has(code)) next.delete(code)
    else next.add(code)
    setChosen(next)
  }
  const items =
    preview === undefined
      ? []
      : [
          ...preview.new.map((i) => ({ ...i, what: 'new' })),
          ...preview.overwrite.map((i) => ({ ...i, what: 'overwrite' })),
          ...preview.keep.map((i) => ({ ...i, what: `keep (${i.source ?? 'protected'})` })),
        ]
  return (
    <Panel
      title="Sync from the venue"
      testId="sync-panel"
      actions={
        <button type="button" disabled={busy} onClick={runPreview} data-testid="sync-preview">
          Preview
        </button>
      }
    >
      <p class="muted">
        A preview writes nothing. The import overwrites the chosen categories and writes their venue markets, keeping manual entries.
      </p>
      <NoteLine note={note} testId="sync-note" />
      {preview !== undefined && (
        <>
          <Table
            testId="sync-preview-table"
            rows={items}
            rowKey={(i) => i.code}
            empty="The venue offers no category."
            columns={[
              {
                title: 'Import',
                render: (i) => (
                  <input type="checkbox" checked={chosen.has(i.code)} onChange={() => toggle(i.code)} aria-label={`import ${i.code}`} />
                ),
              },
              { title: 'Code', render: (i) => <strong>{i.code}</strong> },
              { title: 'Name', render: (i) => i.name },
              { title: 'Would', render: (i) => i.what },
              { title: 'Under', render: (i) => i.parent ?? 'top level' },
              {
                title: 'Markets',
                render: (i) => `${i.market_count}${i.current_market_count === undefined ? '' : ` (now ${i.current_market_count})`}`,
              },
              { title: 'Protected', render: (i) => String(i.protected_count) },
            ]}
          />
          {preview.skip.length > 0 && <p class="muted">Skipped: {preview.skip.map((s) => `${s.code} (${s.reason})`).join(', ')}</p>}
          <button type="button" class="primary" disabled={busy || chosen.size === 0} onClick={runImport} data-testid="sync-import">
            Import {chosen.size} categories
          </button>
        </>
      )}
      {report !== undefined && <Report report={report} testId="sync-report" />}
    </Panel>
  )
}

function CleanupPanel({ onDone }: { onDone: () => void }) {
  const call = useCall()
  const [note, act, busy] = useAction()
  const [report, setReport] = useState<Record<string, unknown> | undefined>()
  const run = () =>
    act(async () => {
      const r = await call<Record<string, unknown>>('POST', '/api/market-categories/cleanup')
      setReport(r)
      onDone()
      return 'Cleanup done.'
    })
  return (
    <Panel
      title="Cleanup"
      testId="cleanup-panel"
      actions={
        <button type="button" disabled={busy} onClick={run} data-testid="cleanup-run">
          Run cleanup
        </button>
      }
    >
      <p class="muted">
        Moves stocks, forex, commodities and indices under tradfi, deletes removed categories (preipo) with their catalog markets and
        recreates missing top-level categories.
      </p>
      <NoteLine note={note} testId="cleanup-note" />
      {report !== undefined && <Report report={report} testId="cleanup-report" />}
    </Panel>
  )
}

/** One item of a report's list: a symbol or code as it is, a record as `code: field value, …`. */
function reportItem(x: unknown): string {
  if (typeof x !== 'object' || x === null) return cell(x)
  const { code, symbol, ...rest } = x as Record<string, unknown>
  const name = code ?? symbol
  const fields = Object.entries(rest).map(([k, v]) => `${k.replaceAll('_', ' ')} ${cell(v)}`)
  return name === undefined ? fields.join(', ') : `${cell(name)} (${fields.join(', ')})`
}

/** A report's fields, one line each; lists shown as their items. */
function Report({ report, testId }: { report: Record<string, unknown>; testId: string }) {
  return (
    <dl class="figures" data-testid={testId}>
      {Object.entries(report).map(([k, v]) => [
        <dt key={`t${k}`}>{k.replaceAll('_', ' ')}</dt>,
        <dd key={`d${k}`}>{Array.isArray(v) ? (v.length === 0 ? 'none' : v.map(reportItem).join('; ')) : cell(v)}</dd>,
      ])}
    </dl>
  )
}

// Small pieces every screen uses: the session's API caller (from context), messages, polling,
// time and JSON formatting, and a table.
import { type ComponentChildren, createContext } from 'preact'
import { useCallback, useContext, useEffect, useRef, useState } from 'preact/hooks'
import { describeError } from './api.ts'

/** Calls the API with the session's token; a 401 or 403 also ends the console's session. */
export type AuthedCall = <T>(method: string, path: string, body?: unknown) => Promise<T>

export const CallContext = createContext<AuthedCall>(() => Promise.reject(new Error('not logged in')))

/** The session's API caller. */
export function useCall(): AuthedCall {
  return useContext(CallContext)
}

/** A message shown above a form or table: an error, or the outcome of an action. */
export interface Note {
  readonly kind: 'error' | 'ok'
  readonly text: string
}

export function NoteLine({ note, testId }: { note: Note | undefined; testId?: string }) {
  if (note === undefined) return null
  return (
    <p class={`note note-${note.kind}`} role={note.kind === 'error' ? 'alert' : 'status'} data-testid={testId}>
      {note.text}
    </p>
  )
}

/** Runs an action, turning its failure into an error note and its success into `okText` (when given). */
export function useAction(): [Note | undefined, (run: () => Promise<string | undefined>) => Promise<void>, boolean] {
  const [note, setNote] = useState<Note | undefined>()
  const [busy, setBusy] = useState(false)
  const act = useCallback(async (run: () => Promise<string | undefined>) => {
    setBusy(true)
    try {
      const text = await run()
      setNote(text === undefined ? undefined : { kind: 'ok', text })
    } catch (err) {
      setNote({ kind: 'error', text: describeError(err) })
    } finally {
      setBusy(false)
    }
  }, [])
  return [note, act, busy]
}

/**
 * Loads `load()` now, whenever `deps` change, every `everyMs` (when given) and when `reload()` is
 * called; keeps the last value while a new one loads.
 */
export function useLoad<T>(
  load: () => Promise<T>,
  deps: readonly unknown[],
  everyMs?: number,
): { value: T | undefined; error: string | undefined; reload: () => void } {
  const [value, setValue] = useState<T | undefined>()
  const [error, setError] = useState<string | undefined>()
  const [tick, setTick] = useState(0)
  const loadRef = useRef(load)
  loadRef.current = load
  // The caller's deps, the tick of reload() and the period decide when to load again.
  useEffect(() => {
    let live = true
    const run = () =>
      loadRef.current().then(
        (v) => {
          if (!live) return
          setValue(v)
          setError(undefined)
        },
        (err) => live && setError(describeError(err)),
      )
    void run()
    const timer = everyMs === undefined ? undefined : setInterval(run, everyMs)
    return () => {
      live = false
      if (timer !== undefined) clearInterval(timer)
    }
  }, [...deps, tick, everyMs])
  return { value, error, reload: useCallback(() => setTick((t) => t + 1), []) }
}

/** A time in milliseconds as local ISO-like text, or a dash. */
export function fmtMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—'
  const d = new Date(ms)
  return Number.isNaN(d.getTime())
    ? String(ms)
    : d
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d+Z$/, 'Z')
}

/** A value for a table cell: strings as they are, null as a dash, anything else as JSON. */
export function cell(v: unknown): string {
  if (v === null || v === undefined) return '—'
  if (typeof v === 'string') return v
  return JSON.stringify(v)
}

/** A section with a title and optional buttons beside it. */
export function Panel({
  title,
  actions,
  children,
  testId,
}: {
  title: string
  actions?: ComponentChildren
  children: ComponentChildren
  testId?: string
}) {
  return (
    <section class="panel" data-testid={testId}>
      <header class="panel-head">
        <h2>{title}</h2>
        <div class="panel-actions">{actions}</div>
      </header>
      {children}
    </section>
  )
}

/** A table of rows with the given columns; `empty` when there are none. */
export function Table<R>({
  rows,
  columns,
  empty,
  rowKey,
  testId,
}: {
  rows: readonly R[]
  columns: readonly { title: string; render: (row: R) => ComponentChildren }[]
  empty: string
  rowKey: (row: R) => string
  testId?: string
}) {
  if (rows.length === 0) return <p class="empty">{empty}</p>
  return (
    <div class="table-wrap">
      <table data-testid={testId}>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.title}>{c.title}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={rowKey(r)}>
              {columns.map((c) => (
                <td key={c.title}>{c.render(r)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

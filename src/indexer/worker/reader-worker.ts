// The history reader thread: a read-only connection to history.sqlite that answers the HTTP and
// JSON-RPC history reads, so no history query ever runs on the thread that produces blocks. In
// WAL mode it reads the last committed transaction while the indexer writes the next.
import type { Database } from 'bun:sqlite'
import { type PageInfo, pageJson, ReadError } from '../paging.ts'
import { runRead } from '../read/ops.ts'
import { openHistoryReader } from '../schema.ts'
import { type SymbolOf, symbolLookup } from '../symbols.ts'
import type { ReaderMessage, ReaderRequest } from './protocol.ts'

declare const self: Worker

let db: Database | undefined
let symbolOf: SymbolOf = () => null

const post = (m: ReaderMessage) => self.postMessage(m)

const pagedJson = (v: { data: unknown; page: PageInfo }) => JSON.stringify({ data: v.data, page: pageJson(v.page) })

self.onmessage = (ev: MessageEvent<ReaderRequest>) => {
  const m = ev.data
  switch (m.type) {
    case 'init':
      try {
        db = openHistoryReader(m.path)
        symbolOf = symbolLookup(m.markets)
        post({ type: 'ready' })
      } catch (err) {
        post({ type: 'fatal', message: `history reader: cannot open ${m.path}: ${(err as Error).message}` })
      }
      return
    case 'markets':
      symbolOf = symbolLookup(m.markets)
      return
    case 'read': {
      if (db === undefined) {
        post({ type: 'result', id: m.id, ok: false, status: 503, message: 'the history index is not open yet' })
        return
      }
      try {
        const result = runRead({ db, symbolOf }, m.op, m.args)
        // A paged answer is serialized here, off the main thread: it only sends the text on.
        const value = m.paged === true ? pagedJson(result.value as { data: unknown; page: PageInfo }) : result
        post({ type: 'result', id: m.id, ok: true, value })
      } catch (err) {
        if (err instanceof ReadError) post({ type: 'result', id: m.id, ok: false, status: err.status, message: err.message })
        else post({ type: 'result', id: m.id, ok: false, status: 500, message: `history read ${m.op} failed: ${(err as Error).message}` })
      }
      return
    }
    case 'stop':
      db?.close()
      db = undefined
      return
  }
}

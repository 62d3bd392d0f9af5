// A thread of the history index that ends while the index runs is reported (onFailure, failures),
// which the node's probes turn into `degraded` (docs/operations.md#health); reads fail at once with
// 503 when the reader thread is gone instead of waiting for their timeout. The threads are ended
// here with Worker.terminate(), standing in for an uncaught error (which ends a Bun worker the same
// way: an error event, then a close event).
import { afterEach, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { BlockStore } from '../node/block-store.ts'
import { HistoryIndex, type HistoryThreadFailure } from './history-index.ts'
import { ReadError } from './paging.ts'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

async function startIndex(): Promise<{ index: HistoryIndex; threads: { indexer: Worker; reader: Worker }; lines: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'perpd-history-index-'))
  dirs.push(dir)
  new BlockStore(dir).close()
  const lines: string[] = []
  const index = await HistoryIndex.start({ dataDir: dir, log: (line) => lines.push(line) }, 0, [])
  // The threads are private; the test ends them as a crash would.
  return { index, threads: index as unknown as { indexer: Worker; reader: Worker }, lines }
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !check(); i++) await Bun.sleep(25)
}

test('the indexer thread ending is reported once, with how it ended', async () => {
  const { index, threads, lines } = await startIndex()
  const heard: HistoryThreadFailure[] = []
  index.onFailure((f) => heard.push(f))
  expect(index.failures).toEqual([])
  threads.indexer.terminate()
  await until(() => heard.length > 0)
  expect(heard).toEqual([{ thread: 'indexer', message: 'the history indexer thread exited with code 0' }])
  expect(index.failures).toEqual(heard)
  expect(lines.some((l) => l.includes('history indexing stopped until a restart'))).toBe(true)
  await index.stop()
  expect(heard.length).toBe(1)
})

test('the reader thread ending fails the reads at once with 503', async () => {
  const { index, threads } = await startIndex()
  const heard: HistoryThreadFailure[] = []
  index.onFailure((f) => heard.push(f))
  threads.reader.terminate()
  await until(() => heard.length > 0)
  expect(heard.map((f) => f.thread)).toEqual(['reader'])
  const err = await index.read('blocks' as never, {} as never).then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(ReadError)
  expect((err as ReadError).status).toBe(503)
  await index.stop()
})

test('stopping the index is not a failure', async () => {
  const { index } = await startIndex()
  const heard: HistoryThreadFailure[] = []
  index.onFailure((f) => heard.push(f))
  await index.stop()
  await Bun.sleep(100)
  expect(heard).toEqual([])
})

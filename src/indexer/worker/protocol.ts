// Messages between the main thread and the indexer's threads (structured-clone plain data).

import type { LogLevel } from '../../lib/log.ts'
import type { PipelineProgress } from '../pipeline.ts'
import type { CandleUpdate } from '../stages/candle.ts'
import type { MarketRef } from '../symbols.ts'

export type IndexerRequest =
  | { type: 'init'; dataDir: string; tip: number; leaderboardRefreshMs?: number | undefined }
  | { type: 'tip'; height: number }
  /** Catch up now (within a time budget) and answer with the progress: /status uses it. */
  | { type: 'sync'; id: number; tip: number }
  | { type: 'stop' }

export type IndexerMessage =
  | { type: 'ready'; progress: PipelineProgress }
  | { type: 'progress'; progress: PipelineProgress; candles: CandleUpdate[] }
  | { type: 'synced'; id: number; progress: PipelineProgress }
  | { type: 'log'; line: string; level?: LogLevel }
  | { type: 'fatal'; message: string }
  | { type: 'stopped' }

export type ReaderRequest =
  | { type: 'init'; path: string; markets: MarketRef[] }
  | { type: 'markets'; markets: MarketRef[] }
  /** With `paged`, the reader answers the JSON text of {data, page} (a paged op's value) itself. */
  | { type: 'read'; id: number; op: string; args: unknown; paged?: boolean }
  | { type: 'stop' }

export type ReaderMessage =
  | { type: 'ready' }
  | { type: 'result'; id: number; ok: true; value: unknown }
  | { type: 'result'; id: number; ok: false; status: number; message: string }
  | { type: 'fatal'; message: string }

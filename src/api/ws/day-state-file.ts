// The hot feed's day state (feed/day-state.ts) in the node's data directory: saved every few blocks
// and when the node stops, read once when the feed is seeded. It is a cache of what the stored
// blocks already say, so a missing, damaged or too old file only means the day's counters start
// from the next block, as before; it never changes the chain.
import { readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { type FeedDayState, FeedDayStateSchema } from '../../feed/day-state.ts'
import type { HotFeed } from '../../feed/hot-feed.ts'
import type { FeedSource } from '../../feed/source.ts'
import { compileValidator } from '../../wire/validate.ts'

export const DAY_STATE_FILE = 'feed-day.json'
/** Blocks between two saves (5 s at the default block time): what a crash leaves to catch up. */
export const DAY_STATE_SAVE_EVERY_BLOCKS = 25
/** A saved state further behind the tip than this is not caught up (the read would be too long). */
export const DAY_STATE_CATCH_UP_BLOCKS_MAX = 50_000
/** Fills read to catch up, at most; more and the day starts from the next block instead. */
export const DAY_STATE_CATCH_UP_FILLS_MAX = 500_000

const validator = compileValidator(FeedDayStateSchema)

/** Writes the feed's day state (to a temporary file renamed over the old one, so a crash leaves one whole file). */
export function saveDayState(dataDir: string, feed: HotFeed): void {
  const file = join(dataDir, DAY_STATE_FILE)
  writeFileSync(`${file}.tmp`, JSON.stringify(feed.dayState()))
  renameSync(`${file}.tmp`, file)
}

/** Resumes a freshly seeded feed from the saved day state, when there is a usable one; says what it did. */
export function resumeDayState(dataDir: string, feed: HotFeed, source: FeedSource, log: (line: string) => void): void {
  const file = join(dataDir, DAY_STATE_FILE)
  let saved: FeedDayState
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'))
    const checked = validator.validate(parsed, 'day state')
    if (!checked.ok) throw new Error(`${checked.field}: ${checked.message}`)
    saved = parsed as FeedDayState
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') log(`hot feed: ${file} not used: ${(err as Error).message}`)
    return
  }
  const tip = feed.height
  if (saved.height > tip) {
    log(`hot feed: ${file} is at height ${saved.height}, above the chain's ${tip}; not used`)
    return
  }
  if (tip - saved.height > DAY_STATE_CATCH_UP_BLOCKS_MAX) {
    log(`hot feed: ${file} is ${tip - saved.height} blocks old; the day's counters start now`)
    return
  }
  const fills = source.fillsBetween(saved.height + 1, tip, DAY_STATE_CATCH_UP_FILLS_MAX + 1)
  if (fills.length > DAY_STATE_CATCH_UP_FILLS_MAX) {
    log(`hot feed: over ${DAY_STATE_CATCH_UP_FILLS_MAX} fills since ${file}; the day's counters start now`)
    return
  }
  feed.resumeDay(saved, fills)
  log(`hot feed: day counters and open candles resumed from height ${saved.height} and ${fills.length} fills after it`)
}

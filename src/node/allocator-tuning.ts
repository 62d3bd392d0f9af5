// The memory allocator's settings for a node under load, applied by starting the process again.
//
// Bun allocates through its own build of mimalloc, which hands freed memory back to the system
// eagerly: whole free spans 100 ms after they were freed, and the free holes inside pages still in
// use whenever a thread goes idle. A node goes idle between blocks many times a second, and the
// next block allocates about the same again, so under load the memory went back and forth: the
// allocator's scavenger thread and the page faults that followed it cost about 15% of the node's CPU per
// action (bun scripts/bench/actions.ts --mode capacity --seconds 40 --transport ws, alternated:
// 259 → 220 µs per action; docs/performance.md#the-memory-allocator). With these settings freed
// memory goes back after it has been free for ten seconds, and the holes at most every ten seconds:
// an idle node still returns what the load left (887 MiB resident after 60 s of idling with
// 1,000,000 resting orders, scripts/bench/memory.ts).
//
// mimalloc reads its settings from the environment once, when the process starts, so they cannot
// be set from JavaScript: src/main.ts, before it loads the node's program, replaces the process with
// itself (execve: the same process id, arguments, standard streams and environment) plus the
// settings, before any other module has run. An operator who sets either variable keeps their
// own values and no restart happens (docs/operations.md#the-memory-allocator).

/** The settings, as mimalloc's environment variables; values in milliseconds. */
export const ALLOCATOR_ENV: Readonly<Record<string, string>> = {
  MIMALLOC_PURGE_DELAY: '10000',
  MIMALLOC_PURGE_HOLES_MIN_INTERVAL: '10000',
}

/** The command line that starts this same program again: a compiled executable, or bun with its script. */
function restartCommand(): string[] {
  const compiled = Bun.main.startsWith('/$bunfs/')
  return compiled
    ? [process.execPath, ...process.argv.slice(2)]
    : [process.execPath, ...process.execArgv, process.argv[1]!, ...process.argv.slice(2)]
}

/** Whether the environment leaves the allocator's settings to us (the operator set none of them). */
function allocatorSettingsMissing(env: NodeJS.ProcessEnv): boolean {
  return Object.keys(ALLOCATOR_ENV).every((name) => env[name] === undefined)
}

/**
 * Starts this process again with the allocator's settings when the environment has none of them.
 * Returns only when it does not restart (the settings are there, or execve is missing or failed:
 * the node then runs with the allocator's defaults, slower under load but correct).
 */
export function applyAllocatorSettings(): void {
  if (!allocatorSettingsMissing(process.env) || typeof process.execve !== 'function') return
  try {
    process.execve(process.execPath, restartCommand(), { ...process.env, ...ALLOCATOR_ENV })
  } catch (err) {
    process.stderr.write(`perpd: could not restart with the allocator's settings (${(err as Error).message}); running with its defaults\n`)
  }
}

// The runtime's memory settings for a node under load, applied by starting the process again.
//
// Two parts of Bun spend CPU on memory in the background, which a loaded node pays for over and
// over (docs/performance.md#memory-settings, docs/operations.md#memory-settings):
// - Bun's build of mimalloc hands freed memory back to the system eagerly: whole free spans 100 ms
//   after they were freed, and the free holes inside pages still in use whenever a thread goes idle.
//   A node goes idle between blocks many times a second and the next block allocates about the
//   same again, so the memory went back and forth: the allocator's scavenger thread and the page
//   faults after it. Here freed memory goes back after ten seconds, the holes at most every ten
//   seconds: an idle node still returns what a load left (786 MiB resident after 60 s of idling
//   with 1,000,000 resting orders, scripts/bench/memory.ts).
// - JavaScriptCore runs a thread that "warms up" the garbage collector's new blocks of memory
//   ahead of use; it took 0.07-0.09 cores at capacity, all the time. It is off here.
// Together (bun scripts/bench/actions.ts --transport ws, alternated with the node before them):
// at capacity medians of 260 → 220 µs CPU per action and 6,140 → 6,766 actions/s; with 50-order
// batches 73-74 → 50-52 µs per order.
//
// Both read their settings from the environment once, when the process starts, so they cannot be
// set from JavaScript: src/main.ts, before it loads the node's program, replaces the process with
// itself (execve: the same process id, arguments, standard streams and environment) plus the
// settings, before any other module has run. An operator who sets any of the variables keeps their
// own values and no restart happens.

/** The settings, as the environment variables the runtime reads; the mimalloc values in milliseconds. */
export const MEMORY_ENV: Readonly<Record<string, string>> = {
  MIMALLOC_PURGE_DELAY: '10000',
  MIMALLOC_PURGE_HOLES_MIN_INTERVAL: '10000',
  BUN_JSC_useWarmUpMarkedBlocks: 'false',
}

/** The command line that starts this same program again: a compiled executable, or bun with its script. */
function restartCommand(): string[] {
  const compiled = Bun.main.startsWith('/$bunfs/')
  return compiled
    ? [process.execPath, ...process.argv.slice(2)]
    : [process.execPath, ...process.execArgv, process.argv[1]!, ...process.argv.slice(2)]
}

/** Whether the environment leaves the memory settings to us (the operator set none of them). */
function memorySettingsMissing(env: NodeJS.ProcessEnv): boolean {
  return Object.keys(MEMORY_ENV).every((name) => env[name] === undefined)
}

/**
 * Starts this process again with the memory settings when the environment has none of them.
 * Returns only when it does not restart (the settings are there, or execve is missing or failed:
 * the node then runs with the runtime's defaults, slower under load but correct).
 */
export function applyMemorySettings(): void {
  if (!memorySettingsMissing(process.env) || typeof process.execve !== 'function') return
  try {
    process.execve(process.execPath, restartCommand(), { ...process.env, ...MEMORY_ENV })
  } catch (err) {
    process.stderr.write(
      `perpd: could not restart with the memory settings (${(err as Error).message}); running with the runtime's defaults\n`,
    )
  }
}

// Preloaded into the node by `bun scripts/bench/memory.ts --heap-stats` (bun --preload): on SIGUSR2
// it runs a full collection that also returns free pages to the system (Bun.gc(true)), then prints
// one line to stderr, `HEAP_STATS {json}`: the main thread's JavaScript heap (bun:jsc heapStats:
// live heap, the heap's capacity and extra memory in MiB, object count, the most numerous object types) and the process's
// resident set after that collection. Worker threads have heaps of their own that it does not see.
import { heapStats } from 'bun:jsc'

const MIB = 1024 * 1024

process.on('SIGUSR2', () => {
  Bun.gc(true)
  const h = heapStats()
  const topTypes = Object.entries(h.objectTypeCounts)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 12)
  const line = {
    heapMiB: h.heapSize / MIB,
    capacityMiB: h.heapCapacity / MIB,
    extraMiB: h.extraMemorySize / MIB,
    objects: h.objectCount,
    rssMiB: process.memoryUsage().rss / MIB,
    topTypes,
  }
  process.stderr.write(`HEAP_STATS ${JSON.stringify(line)}\n`)
})

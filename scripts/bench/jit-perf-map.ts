/**
 * Names JIT-compiled JavaScript in a Linux `perf` profile: reads the jitdump file JSC writes and
 * writes the perf map (`/tmp/perf-PID.map`) that `perf report` and `perf script` read. Each
 * compiled function then shows by name and tier (`JSC-FTL: placeOrder#…`, `JSC-DFG: …`), inlined
 * callees folded into it, beside the runtime's C++ (`bun.exe`) and the kernel (page faults). This
 * is how the engine's hot spots were found: the sampling profiler of `bun --cpu-prof` attributes
 * time to source lines less exactly, and shows neither the runtime nor the tier a function runs in.
 *
 *   mkdir -p /tmp/jd
 *   BUN_JSC_useJITDump=true BUN_JSC_jitDumpDirectory=/tmp/jd \
 *     perf record -e cpu-clock -F 2000 -o /tmp/perf.data -- bun scripts/bench/engine.ts --only full
 *   bun scripts/bench/jit-perf-map.ts /tmp/jd/jit-*.dump
 *   perf report -i /tmp/perf.data --sort sym
 *
 * perf comes from Debian's linux-perf; `cpu-clock` (a software event) works where the VM has no
 * hardware counters. Compiled code is recompiled over a run and later code can reuse an address,
 * so a sample is named after the last function loaded there, and that can misname even whole
 * functions: a profile of the engine through this map showed commitStateRoot's encodeLeaf inside
 * executeBlock's timed windows, and hid most of executeBlock's own time. When that matters, name
 * each sample by the code loaded at its address most recently before it: record with
 * `-k CLOCK_MONOTONIC`, so that the samples' times and the jitdump records' timestamps share a
 * clock, and match on both (that is how the cold-input misses of warm-envelopes.ts were found).
 * Format: the jitdump specification of the Linux perf tools (a header, then
 * records; JIT_CODE_LOAD, id 0, carries the code's address, size and name).
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { parseOptionsOrExit } from '../../src/lib/options.ts'

/** Record id of JIT_CODE_LOAD in the jitdump format. */
const JIT_CODE_LOAD = 0
/** Bytes of a record header: id, total size, timestamp. */
const RECORD_HEADER_BYTES = 16
/** Bytes of JIT_CODE_LOAD's fixed fields after the header: pid, tid, vma, code address, size, index. */
const CODE_LOAD_FIXED_BYTES = 40

/** The perf map lines (`address size name`, hexadecimal) of one jitdump file, and its process id. */
export function perfMapOf(dump: Uint8Array): { pid: number; lines: string[] } {
  const view = new DataView(dump.buffer, dump.byteOffset, dump.byteLength)
  const headerBytes = view.getUint32(8, true)
  const pid = view.getUint32(20, true)
  const lines: string[] = []
  // Each step consumes one record of at least a header's size, so the walk ends at the file's end.
  for (let at = headerBytes; at + RECORD_HEADER_BYTES <= dump.length; ) {
    const id = view.getUint32(at, true)
    const size = view.getUint32(at + 4, true)
    if (size < RECORD_HEADER_BYTES) break
    if (id === JIT_CODE_LOAD) {
      const codeAddress = view.getBigUint64(at + RECORD_HEADER_BYTES + 16, true)
      const codeSize = view.getBigUint64(at + RECORD_HEADER_BYTES + 24, true)
      const nameStart = at + RECORD_HEADER_BYTES + CODE_LOAD_FIXED_BYTES
      const nameEnd = dump.indexOf(0, nameStart)
      const name = new TextDecoder().decode(dump.subarray(nameStart, nameEnd < 0 ? nameStart : nameEnd))
      lines.push(`${codeAddress.toString(16)} ${codeSize.toString(16)} ${name}`)
    }
    at += size
  }
  return { pid, lines }
}

if (import.meta.main) {
  const usage = 'bun scripts/bench/jit-perf-map.ts JIT_DUMP_FILE...'
  const files = parseOptionsOrExit(
    process.argv.slice(2),
    {},
    { usage, positionals: true, program: 'bun scripts/bench/jit-perf-map.ts' },
  ).positionals
  if (files.length === 0) {
    console.error(`usage: ${usage}`)
    process.exit(2)
  }
  for (const file of files) {
    const { pid, lines } = perfMapOf(readFileSync(file))
    const out = `/tmp/perf-${pid}.map`
    writeFileSync(out, `${lines.join('\n')}\n`)
    console.log(`${out}: ${lines.length} compiled functions from ${file}`)
  }
}

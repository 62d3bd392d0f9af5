// CPU time of a process and of each of its threads, from Linux's /proc (utime + stime of
// /proc/PID/stat and /proc/PID/task/TID/stat, in clock ticks). Two samples around a timed section
// give the cores it used (CPU seconds / wall seconds) and the CPU time per unit of work. The main
// thread's time waiting in the run queue (/proc/PID/task/PID/schedstat, when the kernel keeps it)
// says how much it was held back by other processes: on a busy machine, a lot.
// Elsewhere than Linux the samples are undefined and the figures are left out.
import { readdirSync, readFileSync } from 'node:fs'

/** Clock ticks per second of /proc's times (getconf CLK_TCK; 100 on Linux in practice). */
const CLOCK_TICKS = (() => {
  try {
    const r = Bun.spawnSync(['getconf', 'CLK_TCK'])
    const n = Number(r.stdout.toString().trim())
    return Number.isInteger(n) && n > 0 ? n : 100
  } catch {
    return 100
  }
})()

/** One reading of a process's CPU time. */
export interface CpuSample {
  readonly pid: number
  /** performance.now() when read. */
  readonly at: number
  /** utime + stime of the whole process (threads that ended included), in seconds. */
  readonly seconds: number
  /** utime + stime of each live thread, by thread id. */
  readonly threads: ReadonlyMap<number, { readonly name: string; readonly seconds: number }>
  /** Seconds the main thread spent runnable but waiting for a CPU (schedstat), if known. */
  readonly mainWaitSeconds: number | undefined
}

/** utime + stime (seconds) and the name (comm) in a stat line; the name may hold spaces and parentheses. */
function parseStat(line: string): { name: string; seconds: number } {
  const open = line.indexOf('(')
  const close = line.lastIndexOf(')')
  const name = line.slice(open + 1, close)
  // After "pid (comm) " come the fields from 3 (state) on: utime is field 14, stime field 15.
  const fields = line.slice(close + 2).split(' ')
  return { name, seconds: (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS }
}

/** Reads a process's CPU time and its threads'; undefined when /proc has no such process. */
export function sampleCpu(pid: number): CpuSample | undefined {
  const at = performance.now()
  let total: number
  try {
    total = parseStat(readFileSync(`/proc/${pid}/stat`, 'utf8')).seconds
  } catch {
    return undefined
  }
  const threads = new Map<number, { name: string; seconds: number }>()
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        threads.set(Number(tid), parseStat(readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')))
      } catch {
        // The thread ended between the listing and the read.
      }
    }
  } catch {
    // No task listing: the total stands alone.
  }
  let mainWaitSeconds: number | undefined
  try {
    const wait = Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[1])
    if (Number.isFinite(wait)) mainWaitSeconds = wait / 1e9
  } catch {
    // No schedstat (kernel without schedstats): left out.
  }
  return { pid, at, seconds: total, threads, mainWaitSeconds }
}

/**
 * What a Bun thread is, from its name: the JavaScript main thread (its id is the process id),
 * JavaScript Worker threads, the JIT compilers, the garbage collector and allocator, Bun's pool.
 */
function threadGroup(pid: number, tid: number, name: string): string {
  if (tid === pid) return 'main'
  if (name === 'Worker') return 'Worker'
  if (/JIT|WarmUp/i.test(name)) return 'JIT'
  if (/Heap|Collector|scavenger|GC/i.test(name)) return 'GC'
  if (/Bun Pool/i.test(name)) return 'Bun pool'
  return 'other'
}

/** The CPU a process used between two samples. */
export interface CpuUse {
  readonly wallSeconds: number
  readonly cpuSeconds: number
  /** cpuSeconds / wallSeconds. */
  readonly cores: number
  /** Per thread group (main, Worker, JIT, GC, Bun pool, other), heaviest first: cores and thread count. */
  readonly groups: readonly { readonly group: string; readonly cores: number; readonly threads: number }[]
  /** The Worker threads one by one (id and cores), in the order they were started. */
  readonly workers: readonly { readonly tid: number; readonly cores: number }[]
  /** Share of the wall time the main thread was runnable but waited for a CPU, if known. */
  readonly mainWaitShare: number | undefined
}

/** The CPU used between `before` and `after` (same process). */
export function cpuBetween(before: CpuSample, after: CpuSample): CpuUse {
  const wallSeconds = (after.at - before.at) / 1000
  const cpuSeconds = after.seconds - before.seconds
  const groups = new Map<string, { seconds: number; threads: number }>()
  const workers: { tid: number; cores: number }[] = []
  for (const [tid, t] of after.threads) {
    const used = t.seconds - (before.threads.get(tid)?.seconds ?? 0)
    const group = threadGroup(after.pid, tid, t.name)
    const g = groups.get(group) ?? { seconds: 0, threads: 0 }
    g.seconds += used
    g.threads++
    groups.set(group, g)
    if (group === 'Worker') workers.push({ tid, cores: used / wallSeconds })
  }
  workers.sort((a, b) => a.tid - b.tid)
  return {
    wallSeconds,
    cpuSeconds,
    cores: cpuSeconds / wallSeconds,
    groups: [...groups]
      .map(([group, g]) => ({ group, cores: g.seconds / wallSeconds, threads: g.threads }))
      .sort((a, b) => b.cores - a.cores),
    workers,
    mainWaitShare:
      before.mainWaitSeconds === undefined || after.mainWaitSeconds === undefined
        ? undefined
        : (after.mainWaitSeconds - before.mainWaitSeconds) / wallSeconds,
  }
}

/** One line: the cores used and the CPU µs per unit of work, then the thread groups. */
export function describeCpu(who: string, use: CpuUse, units: number, unitName: string): string {
  const perUnit = units > 0 ? `, ${Math.round((use.cpuSeconds * 1e6) / units).toLocaleString('en-US')} µs CPU per ${unitName}` : ''
  const groups = use.groups
    .filter((g) => g.cores >= 0.005)
    .map((g) => `${g.group}${g.threads > 1 ? ` (${g.threads} threads)` : ''} ${g.cores.toFixed(2)}`)
    .join(', ')
  const workers =
    use.workers.length > 0 ? `; Worker threads one by one: ${use.workers.map((w) => `${w.tid} ${w.cores.toFixed(2)}`).join(', ')}` : ''
  const wait =
    use.mainWaitShare === undefined ? '' : `; main thread waited for a CPU ${Math.round(use.mainWaitShare * 100)}% of the wall time`
  return `${who} CPU: ${use.cores.toFixed(2)} cores${perUnit} [cores by thread: ${groups}${workers}]${wait}`
}

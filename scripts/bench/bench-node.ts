// A perpd node started by a benchmark: `bun src/main.ts` with the caller's arguments, on
// 127.0.0.1 port 0 with a temporary data directory and its /action rate limits off. Its output is
// read all along (a full pipe would stall it) and only the end is kept, for error messages. It is
// stopped by its PID, and its directory removed then.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const ROOT = join(import.meta.dir, '..', '..')
/** Output kept, characters. */
const TAIL_CHARS = 65_536
/** How long a stop waits after its signal before SIGKILL. */
const STOP_GRACE_MS = 10_000

/** A node started here: its address, PID, data directory, and the tail of its output. */
export interface BenchNode {
  readonly url: string
  readonly pid: number
  readonly dataDir: string
  /** Sends `signal` (SIGKILL after a grace period), waits for the exit, removes the data directory; the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number>
  tail(): string
}

/** Starts the node; resolves once it prints its address (not waiting for its recovery). */
export async function startBenchNode(opts: {
  /** Role and other flags, before the common ones. */
  readonly args: readonly string[]
  /** Flags of bun itself, before the entry point (e.g. `--preload FILE`). */
  readonly runtimeArgs?: readonly string[]
  readonly blockTimeMs: number
  /** Prefix of the temporary data directory's name. */
  readonly dirPrefix: string
  readonly startTimeoutMs?: number
}): Promise<BenchNode> {
  const dataDir = mkdtempSync(join(tmpdir(), opts.dirPrefix))
  const args = [
    ...opts.args,
    '--data-dir',
    dataDir,
    '--host',
    '127.0.0.1',
    '--port',
    '0',
    '--block-time-ms',
    String(opts.blockTimeMs),
    '--rate-limit-ip',
    '0',
    '--rate-limit-signer',
    '0',
  ]
  const proc = Bun.spawn([process.execPath, ...(opts.runtimeArgs ?? []), join(ROOT, 'src/main.ts'), ...args], {
    cwd: ROOT,
    stdout: 'pipe',
    stderr: 'pipe',
  })
  let text = ''
  const pump = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder()
    for await (const chunk of stream) text = (text + decoder.decode(chunk)).slice(-TAIL_CHARS)
  }
  void pump(proc.stdout)
  void pump(proc.stderr)
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal)
    const timer = setTimeout(() => proc.kill('SIGKILL'), STOP_GRACE_MS)
    const code = await proc.exited
    clearTimeout(timer)
    rmSync(dataDir, { recursive: true, force: true })
    return code
  }
  const deadline = Date.now() + (opts.startTimeoutMs ?? 60_000)
  while (Date.now() < deadline) {
    const m = text.match(/listening on (http:\/\/127\.0\.0\.1:\d+)/)
    if (m !== null) return { url: m[1]!, pid: proc.pid, dataDir, stop, tail: () => text }
    if (proc.exitCode !== null) break
    await Bun.sleep(25)
  }
  await stop('SIGKILL')
  throw new Error(`the node did not start: ${text.slice(-3_000)}`)
}

/**
 * Waits until the node has recovered (its health probe, GET /api/v1/health, no longer says
 * "recovering"): a node started a moment ago prints its address before its recovery ends, and its
 * queries answer RECOVERING until then.
 */
export async function untilRecovered(base: string, timeoutMs = 60_000): Promise<void> {
  const deadline = performance.now() + timeoutMs
  for (;;) {
    const status = await fetch(`${base}/api/v1/health`)
      .then(async (r) => ((await r.json()) as { status?: string }).status)
      .catch(() => undefined)
    if (status !== undefined && status !== 'recovering') return
    if (performance.now() > deadline)
      throw new Error(`the node at ${base} did not finish recovering within ${timeoutMs} ms (health: ${status})`)
    await Bun.sleep(25)
  }
}

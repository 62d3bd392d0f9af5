// Runs one of the project's servers (src/main.ts, src/admin.ts) as a child process on 127.0.0.1
// port 0 and waits for the address it prints; stops it by its PID. Or runs a script to its exit.
import { join } from 'node:path'

/** The repository root: child processes run here. */
export const PROJECT_ROOT = join(import.meta.dir, '..', '..')

/**
 * The environment of a child process: this one's without its PERPD_* variables (which configure
 * perpd and perpd-admin, docs/operator.md#configuration) and its MIMALLOC_* and BUN_JSC_* variables
 * (the runtime's settings; src/main.ts adds its memory settings itself when none is set), so a
 * developer's shell cannot change what a test starts; plus `extra`.
 */
export function childEnv(extra: Readonly<Record<string, string>> = {}): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [name, value] of Object.entries(process.env))
    if (value !== undefined && !/^(PERPD_|MIMALLOC_|BUN_JSC_)/.test(name)) env[name] = value
  return { ...env, ...extra }
}

/** What a script run to its exit printed, and its exit code. */
export interface RunResult {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

/**
 * Runs `bun <script> ...args` to its exit (start-up refusals, commands, the CLI): in `cwd` (the
 * project root by default) with childEnv(env), SIGKILLed after timeoutMs.
 */
export async function runScript(
  script: string,
  args: readonly string[],
  opts: { readonly env?: Readonly<Record<string, string>>; readonly cwd?: string; readonly timeoutMs?: number } = {},
): Promise<RunResult> {
  const proc = Bun.spawn([process.execPath, join(PROJECT_ROOT, script), ...args], {
    cwd: opts.cwd ?? PROJECT_ROOT,
    stdout: 'pipe',
    stderr: 'pipe',
    env: childEnv(opts.env),
  })
  const timer = setTimeout(() => proc.kill('SIGKILL'), opts.timeoutMs ?? 30_000)
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  clearTimeout(timer)
  return { code, stdout, stderr }
}

/** How long a server may take to print its address. */
const START_TIMEOUT_MS = 20_000

/** A server started by spawnListening. */
export interface ListeningProcess {
  /** Its process id. */
  readonly pid: number
  /** The address it printed, e.g. http://127.0.0.1:41234 (https:// when it serves TLS). */
  readonly url: string
  /** Everything it wrote to stdout and stderr so far. */
  output(): string
  /** Sends `signal` (SIGKILL after 10 s) and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number>
  /** Resolves with the exit code once the process exits (on its own or stopped). */
  readonly exited: Promise<number>
}

/**
 * Starts `bun <script> ...args` in the project root and resolves once it prints
 * `listening on http://127.0.0.1:PORT`; throws (with its output) when it exits or prints no
 * address in 20 s. `name` names the process in those errors.
 */
export function spawnListening(
  name: string,
  script: string,
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
): Promise<ListeningProcess> {
  return spawnListeningCommand(name, [process.execPath, join(PROJECT_ROOT, script), ...args], PROJECT_ROOT, env)
}

/** As {@link spawnListening}, for any command (e.g. a compiled binary) run in `cwd`; `env` is added to childEnv's. */
export async function spawnListeningCommand(
  name: string,
  command: readonly string[],
  cwd: string,
  env: Readonly<Record<string, string>> = {},
): Promise<ListeningProcess> {
  const proc = Bun.spawn([...command], { cwd, stdout: 'pipe', stderr: 'pipe', env: childEnv(env) })
  let text = ''
  const pump = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder()
    for await (const chunk of stream) text += decoder.decode(chunk)
  }
  void pump(proc.stdout)
  void pump(proc.stderr)
  const deadline = Date.now() + START_TIMEOUT_MS
  let url = ''
  while (Date.now() < deadline) {
    const m = text.match(/listening on (https?:\/\/127\.0\.0\.1:\d+)/)
    if (m) {
      url = m[1]!
      break
    }
    if (proc.exitCode !== null) throw new Error(`${name} exited with ${proc.exitCode}: ${text}`)
    await Bun.sleep(25)
  }
  if (url === '') {
    proc.kill('SIGKILL')
    throw new Error(`${name} printed no address in 20 s: ${text}`)
  }
  return {
    pid: proc.pid,
    url,
    output: () => text,
    exited: proc.exited,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal)
      const timer = setTimeout(() => proc.kill('SIGKILL'), 10_000)
      const code = await proc.exited
      clearTimeout(timer)
      return code
    },
  }
}

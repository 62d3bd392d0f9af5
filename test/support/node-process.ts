// Starts the real node (src/main.ts) as a child process on 127.0.0.1 port 0 with a temporary data
// directory, and stops it by its PID. Tests talk to it over HTTP with the project's client.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DEV_PRIVATE_KEYS } from '../../src/node/dev-banner.ts'
import { type ListeningProcess, spawnListening } from './child-process.ts'

/** A running node with its data directory. */
export interface NodeProcess extends ListeningProcess {
  readonly dataDir: string
}

/** Options of startNode. */
export interface StartNodeOptions {
  /** The data directory; default a new temporary one. */
  dataDir?: string
  /** Block time in ms; default 50. */
  blockTimeMs?: number
  /** More flags of src/main.ts. */
  extraArgs?: string[]
  /** Keep the default /action rate limits (docs/limits.md#action-rate-limits; off by default here). */
  specRateLimits?: boolean
  /**
   * Wait until the node has recovered (its probes no longer say `recovering`) before resolving
   * (default true). With false it resolves as soon as the port is bound, while it may still replay.
   */
  waitReady?: boolean
  /**
   * Run the development quoter of --dev (off by default: tests quote XAU-USD themselves, or expect
   * it halted, and a quoter of its own would race them).
   */
  devQuoter?: boolean
}

/** How long startNode waits for a node to recover (replay its stored chain) after it bound its port. */
const READY_TIMEOUT_MS = 120_000

/** The development keys of docs/protocol.md#development-network (Anvil/Hardhat #0..#9); #0 is the Admin. */
export const DEV_KEYS = DEV_PRIVATE_KEYS

export function tempDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'perpd-test-'))
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true })
}

/**
 * Starts `bun src/main.ts --dev` and resolves once it prints its address. Tests that send bursts
 * run without the /action rate limits unless specRateLimits is set (then the defaults: 50/s per IP
 * and 20/s per signer apply), and without the development quoter unless devQuoter is set.
 */
export async function startNode(opts: StartNodeOptions = {}): Promise<NodeProcess> {
  const limits = opts.specRateLimits === true ? [] : ['--rate-limit-ip', '0', '--rate-limit-signer', '0']
  const quoter = opts.devQuoter === true ? [] : ['--no-dev-quoter']
  return spawnNode('node', ['--dev', ...limits, ...quoter, ...(opts.extraArgs ?? [])], opts)
}

/**
 * Spawns `bun src/main.ts` on 127.0.0.1 port 0 with its data directory (a new temporary one unless
 * given) and block time (default 50 ms), then `args` (last, so they can override those); waits for
 * its recovery unless waitReady is false. The node starters of this folder share it.
 */
export async function spawnNode(
  label: string,
  args: readonly string[],
  opts: { dataDir?: string; blockTimeMs?: number; waitReady?: boolean } = {},
): Promise<NodeProcess> {
  const dataDir = opts.dataDir ?? tempDataDir()
  const common = ['--data-dir', dataDir, '--host', '127.0.0.1', '--port', '0', '--block-time-ms', String(opts.blockTimeMs ?? 50)]
  const proc = await spawnListening(label, 'src/main.ts', [...common, ...args])
  if (opts.waitReady !== false) await waitRecovered(proc)
  return { ...proc, dataDir }
}

/**
 * Waits until a node that bound its port has recovered: /api/v1/health/live says something other
 * than `recovering` (ok, degraded, or halted). Throws with the node's output when it does not in time.
 */
export async function waitRecovered(proc: ListeningProcess, timeoutMs = READY_TIMEOUT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs
  let last = ''
  while (Date.now() < deadline) {
    try {
      const r = await fetch(`${proc.url}/api/v1/health/live`)
      const body = (await r.json()) as { status?: string }
      if (body.status !== 'recovering') return
      last = JSON.stringify(body)
    } catch (err) {
      last = (err as Error).message
    }
    await Bun.sleep(25)
  }
  throw new Error(`the node at ${proc.url} did not recover in ${timeoutMs} ms (last probe: ${last}):\n${proc.output()}`)
}

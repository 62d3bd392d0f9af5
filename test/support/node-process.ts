// Starts the real node (src/main.ts) as a child process on 127.0.0.1 port 0 with a temporary data
// directory, and stops it by its PID. Tests talk to it over HTTP with the project's client.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { spawnListening, type ListeningProcess } from './child-process.ts'

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
export const DEV_KEYS = [
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
  '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6',
  '0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a',
  '0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba',
  '0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e',
  '0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356',
  '0xdbda1821b80551c9d65939329250298aa3472ba22feea921c0cf5d620ea67b97',
  '0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6',
] as const

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
  const dataDir = opts.dataDir ?? tempDataDir()
  const args = ['--dev', '--data-dir', dataDir, '--host', '127.0.0.1', '--port', '0', '--block-time-ms', String(opts.blockTimeMs ?? 50), ...limits, ...quoter, ...(opts.extraArgs ?? [])]
  const proc = await spawnListening('node', 'src/main.ts', args)
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

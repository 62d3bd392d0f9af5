// The subcommands of `perpd` besides `start` (docs/operator.md#the-perpd-command): init, replay
// --verify, status, keys new, version. src/main.ts parses their options (the tables in src/config.ts)
// and calls these; each returns the exit code.
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { BOOK_B_ADDRESS } from '../chain/index.ts'
import { bytesToHex, normalizeAddress } from '../lib/hex.ts'
import { createLogger, errorMessage, logLine } from '../lib/log.ts'
import type { Genesis } from '../wire/genesis.ts'
import { addressOfPrivateKey } from '../wire/signing.ts'
import { BlockStore } from './block-store.ts'
import { ChainNode } from './chain-node.ts'
import { codeFingerprint } from './code-fingerprint.ts'
import { devGenesis } from './dev-genesis.ts'
import { replayReporter } from './replay-progress.ts'

/** Exit code of a stored chain that does not replay (as the node's, docs/operations.md#exit-codes). */
export const EXIT_REPLAY_MISMATCH = 65

export interface Output {
  readonly out: (line: string) => void
  readonly err: (line: string) => void
}

const STDIO: Output = { out: (l) => console.log(l), err: (l) => console.error(l) }

// ---------------------------------------------------------------------------------------------
// perpd version

export function versionCommand(version: string, io: Output = STDIO): number {
  io.out(version)
  io.out(`code fingerprint ${codeFingerprint()}`)
  return 0
}

// ---------------------------------------------------------------------------------------------
// perpd keys new

export function keysNewCommand(options: { json: boolean }, io: Output = STDIO): number {
  const privateKey = secp256k1.utils.randomSecretKey()
  const address = addressOfPrivateKey(privateKey)
  const hex = bytesToHex(privateKey)
  if (options.json) io.out(JSON.stringify({ address, private_key: hex }))
  else io.out(`address      ${address}\nprivate key  ${hex}\n(shown once: store it safely; perpd does not keep it)`)
  return 0
}

// ---------------------------------------------------------------------------------------------
// perpd init

/**
 * The genesis init writes: `admin` holds Admin and Trader and is the fee recipient and insurance
 * fund; the markets and limits of the development network as a starting point (native markets
 * Active, the external-peg one Created until a quoter runs); Book B (the external-peg counterparty)
 * at zero. Balances are zero: the operator edits them, the markets and the roles.
 */
export function initialGenesis(network: string, admin: string, nowMs: number): Genesis {
  const dev = devGenesis()
  return {
    network,
    genesis_time_ms: nowMs,
    max_tx_per_block: dev.max_tx_per_block,
    global_rebate_ratio_bps: dev.global_rebate_ratio_bps,
    insurance_fund: admin,
    accounts: [
      { address: admin, balance: '0', roles: ['Admin', 'Trader'] },
      { address: BOOK_B_ADDRESS, balance: '0', roles: [] },
    ],
    markets: dev.markets.map((m) => ({
      ...m,
      fee_recipient: admin,
      lifecycle: m.routing === 'external_peg' ? ('Created' as const) : m.lifecycle,
    })),
  }
}

export function initCommand(
  options: { network: string; admin: string; out: string },
  check: (genesis: unknown, label: string) => Genesis,
  io: Output = STDIO,
): number {
  const admin = normalizeAddress(options.admin)
  if (admin === undefined) {
    io.err(`--admin must be an address (0x and 40 hex digits), got ${options.admin}`)
    return 2
  }
  const genesis = check(initialGenesis(options.network, admin, Date.now()), options.out)
  try {
    // wx: refused when the file exists, so an edited genesis is never overwritten.
    writeFileSync(options.out, `${JSON.stringify(genesis, null, 2)}\n`, { flag: 'wx' })
  } catch (err) {
    const code = (err as { code?: string }).code
    io.err(
      code === 'EEXIST'
        ? `${options.out} exists; init never overwrites a genesis (remove it or choose another --out)`
        : `cannot write ${options.out}: ${errorMessage(err)}`,
    )
    return 1
  }
  io.out(`wrote the genesis of network ${options.network} to ${options.out}`)
  io.out(`edit its accounts (roles, balances), markets and limits, then start the node with: perpd --genesis ${options.out} --data-dir DIR`)
  return 0
}

// ---------------------------------------------------------------------------------------------
// perpd replay --verify

/** What a failed replay assertion says (chain-node.ts replayBlock), taken apart to explain it. */
const ROOT_MISMATCH = /replay of block (\d+) reached (state_root|digest) (0x[0-9a-f]+), stored (0x[0-9a-f]+)/
const STATUS_MISMATCH = /replay of block (\d+) envelope (\d+) changed status/

export async function replayVerifyCommand(
  options: { dataDir: string; genesis: Genesis | undefined; tty: boolean },
  io: Output = STDIO,
): Promise<number> {
  const file = join(options.dataDir, 'chain.sqlite')
  if (!existsSync(file)) {
    io.err(`${options.dataDir} holds no block store (no chain.sqlite)`)
    return 1
  }
  let stored: Genesis
  let tip: number
  try {
    const store = new BlockStore(options.dataDir)
    try {
      const text = store.getMeta('genesis')
      if (text === undefined) {
        io.err(`${file} holds no genesis`)
        return 1
      }
      stored = JSON.parse(text) as Genesis
      tip = store.tipHeight()
    } finally {
      store.close()
    }
  } catch (err) {
    io.err(`cannot open ${file}: ${errorMessage(err)}`)
    return 1
  }
  if (options.genesis !== undefined && JSON.stringify(options.genesis) !== JSON.stringify(stored)) {
    io.err(`${options.dataDir} holds a chain of another genesis (network ${stored.network}) than the one given`)
    return EXIT_REPLAY_MISMATCH
  }
  const log = createLogger('replay')
  const node = new ChainNode({
    dataDir: options.dataDir,
    genesis: stored,
    blockTimeMs: 1_000,
    snapshotEveryBlocks: 0,
    // Each block's root folded on a thread of its own while the next block executes, as a node replays.
    stateRootThread: true,
    deferRecovery: true,
    fromGenesis: true,
    log: logLine(log),
  })
  const progress = replayReporter({ tty: options.tty, write: (text) => process.stderr.write(text), log: (line) => log.info(line) })
  const started = performance.now()
  try {
    await node.recover(progress.report)
  } catch (err) {
    progress.done()
    io.err(explainMismatch(errorMessage(err)))
    return EXIT_REPLAY_MISMATCH
  } finally {
    progress.done()
    node.stop()
  }
  io.out(
    `verified ${tip} blocks of network ${stored.network} from genesis in ${Math.round(performance.now() - started)} ms: every state root and digest matches`,
  )
  return 0
}

/** The first mismatch as an operator reads it: the height, what is stored and what this code computes. */
export function explainMismatch(message: string): string {
  const root = ROOT_MISMATCH.exec(message)
  if (root !== null) {
    const [, height, what, computed, expected] = root
    return [
      `mismatch at height ${height}: the ${what} differs`,
      `  expected (stored) ${expected}`,
      `  computed          ${computed}`,
      what === 'state_root'
        ? 'the block store is damaged at or before this block, or this build computes another state than the one that wrote it'
        : "the block's header (parent, time, envelopes or their status) differs from what it was stored with",
    ].join('\n')
  }
  const status = STATUS_MISMATCH.exec(message)
  if (status !== null)
    return `mismatch at height ${status[1]}: envelope ${status[2]} replays to another status (accepted or kept reject) than the stored one`
  return `the stored chain does not replay: ${message}`
}

// ---------------------------------------------------------------------------------------------
// perpd status

interface HealthReply {
  status?: string
  height?: number
  store_dirty?: boolean
  reasons?: { code: string; message: string }[]
  replayed_height?: number
  target_height?: number
  eta_ms?: number | null
}

export async function statusCommand(options: { url: string; json: boolean; timeoutMs: number }, io: Output = STDIO): Promise<number> {
  const base = options.url.replace(/\/+$/, '')
  const get = async (path: string): Promise<{ status: number; body: unknown }> => {
    const res = await fetch(`${base}${path}`, { signal: AbortSignal.timeout(options.timeoutMs) })
    const text = await res.text()
    let body: unknown = text
    try {
      body = JSON.parse(text)
    } catch {
      /* not JSON: shown as text */
    }
    return { status: res.status, body }
  }
  let health: { status: number; body: unknown }
  try {
    health = await get('/api/v1/health')
  } catch (err) {
    io.err(`${base} does not answer: ${errorMessage(err)}`)
    return 1
  }
  const h = (typeof health.body === 'object' && health.body !== null ? health.body : {}) as HealthReply
  // /status answers once the node serves (503 while it recovers or after a halt).
  const status = await get('/api/v1/status').catch(() => undefined)
  const s = status?.status === 200 ? (status.body as Record<string, unknown>) : undefined
  const ok = h.status === 'ok'
  if (options.json) {
    io.out(JSON.stringify({ url: base, health: health.body, status: s ?? null }))
    return ok ? 0 : 3
  }
  const rows: [string, string][] = [
    ['node', base],
    [
      'health',
      `${h.status ?? `unknown (HTTP ${health.status})`}${h.store_dirty === true ? ' (store dirty: the state is ahead of the block store)' : ''}`,
    ],
    ['height', String(h.height ?? '?')],
  ]
  if (h.status === 'recovering')
    rows.push([
      'replay',
      `block ${h.replayed_height} of ${h.target_height}${h.eta_ms != null ? `, about ${Math.ceil(h.eta_ms / 1000)} s left` : ''}`,
    ])
  for (const r of h.reasons ?? []) rows.push(['reason', `${r.code}: ${r.message}`])
  if (s !== undefined) {
    rows.push(['history', `indexed through ${s.watermark ?? 'nothing yet'}, ${s.behind} blocks behind the tip ${s.node_tip}`])
    const markets = s.markets as { native?: number; external_peg?: number } | undefined
    if (markets !== undefined) rows.push(['markets', `${markets.native} native, ${markets.external_peg} external peg`])
  }
  for (const [label, value] of rows) io.out(`${label.padEnd(9)}${value}`)
  return ok ? 0 : 3
}

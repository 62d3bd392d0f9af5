// The options of the /action load generator (scripts/bench/load.ts), shared with the benches that
// start a node and run the generator against it (actions.ts, reads-under-load.ts).
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import { defineOptions, type OptionValues } from '../../src/lib/options.ts'

/** Agents one dev account may hold (LIMITS.agentsPerMasterMax) times the ten dev accounts. */
export const AGENTS_MAX = 160

/** The nonce window (docs/protocol.md#nonces): a signer's actions in flight stay within it. */
export const WINDOW = 64

export const LOAD_OPTIONS = defineOptions({
  mode: {
    type: 'string',
    choices: ['capacity', 'open', 'batch'],
    default: 'capacity',
    description:
      'capacity: closed loop, --in-flight requests at all times, each a PlaceOrder then a CancelOrder by client id; open: the same actions at a fixed --rate whatever the replies; batch: BatchPlaceOrder of --batch-size IOC orders, closed loop',
  },
  seconds: { type: 'integer', default: 10, min: 1, max: 3_600, description: 'length of the timed section' },
  'warmup-seconds': {
    type: 'integer',
    default: 2,
    min: 0,
    max: 600,
    description: 'the same load before the timed section, not counted (JIT, connections, a book)',
  },
  'max-actions': {
    type: 'integer',
    min: 1,
    max: 5_000_000,
    defaultText: 'capacity 12000, open 1.1 x rate, batch 2500; each x (warm-up + seconds)',
    description: 'actions signed before the timed section, which ends early if they run out',
  },
  'in-flight': {
    type: 'integer',
    min: 1,
    max: AGENTS_MAX * (WINDOW / 2),
    defaultText: 'capacity 3000, batch 1000',
    description: 'capacity and batch: requests in flight, spread over the agents (at most 32 per agent)',
  },
  rate: { type: 'integer', default: 2_000, min: 1, max: 1_000_000, description: 'open: actions offered per second' },
  'max-tx-per-block': {
    type: 'integer',
    default: 5_000,
    min: 0,
    max: 100_000,
    description:
      "raise the node's max_tx_per_block to this (AmendExchangeConfig by dev account #0, the Admin) when it is lower; 0 leaves it. The dev genesis has 2,000, which caps a closed loop at 10,000 actions/s with 200 ms blocks",
  },
  'batch-size': { type: 'integer', default: 50, min: 1, max: 50, description: 'batch: orders per BatchPlaceOrder' },
  agents: {
    type: 'integer',
    default: 150,
    min: 1,
    max: AGENTS_MAX,
    description: 'signers: agent keys registered for the ten dev accounts (at most 16 each), Trader role',
  },
  'sign-workers': {
    type: 'integer',
    default: Math.min(4, availableParallelism()),
    min: 0,
    max: 64,
    description: 'Worker threads that pre-sign the actions (0: sign on the main thread)',
  },
  transport: {
    type: 'string',
    choices: ['http', 'ws'],
    default: 'http',
    description:
      'http: one POST /api/v1/action per action; ws: post frames over --ws-connections WebSocket connections (docs/websocket.md#posting-actions)',
  },
  'ws-connections': {
    type: 'integer',
    // Eight: with four, 3,000 posts in flight came near the node's 1,024 a connection at times
    // (tens of TOO_MANY_IN_FLIGHT refusals a run at 10,000 actions/s).
    default: 8,
    min: 1,
    max: 256,
    description: 'ws transport: WebSocket connections the actions are spread over (round robin)',
  },
  'max-http-requests': {
    type: 'integer',
    default: 16_384,
    min: 256,
    max: 65_535,
    description:
      "BUN_CONFIG_MAX_HTTP_REQUESTS of the generator: fetch requests at once (Bun's default 256 would queue the rest in the client)",
  },
})

export type LoadValues = OptionValues<typeof LOAD_OPTIONS>

/** The command line of load.ts that gives it `values` (the options set, or defaulted, in the table). */
export function loadArgs(values: Partial<Record<keyof typeof LOAD_OPTIONS, string | number | boolean | undefined>>): string[] {
  const args: string[] = []
  for (const name of Object.keys(LOAD_OPTIONS) as (keyof typeof LOAD_OPTIONS)[]) {
    const v = values[name]
    if (v === undefined || v === false) continue
    args.push(`--${name}`)
    if (v !== true) args.push(String(v))
  }
  return args
}

/**
 * Starts load.ts against the node at url (pid: for its CPU figures) with `values`, its fetch cap
 * raised to --max-http-requests, in the repository's root; its output goes to `stdout`.
 */
export function spawnLoadGenerator(url: string, pid: number | undefined, values: LoadValues, stdout: 'inherit' | 'pipe') {
  const args = ['--url', url, ...(pid === undefined ? [] : ['--node-pid', String(pid)]), ...loadArgs(values)]
  return Bun.spawn([process.execPath, join(import.meta.dir, 'load.ts'), ...args], {
    cwd: join(import.meta.dir, '..', '..'),
    env: { ...process.env, BUN_CONFIG_MAX_HTTP_REQUESTS: String(values['max-http-requests']) },
    stdio: ['inherit', stdout, 'inherit'],
  })
}

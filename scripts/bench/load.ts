// The /action load generator: drives a running dev node on 127.0.0.1 from many signers and
// measures the node, not this client. scripts/bench/actions.ts starts a node and runs this against
// it; run it alone against a node you started yourself:
//   bun scripts/bench/load.ts --url http://127.0.0.1:8080 [--node-pid PID] [--mode capacity|open|batch] [options]
// (the node with --rate-limit-ip 0 --rate-limit-signer 0, or its limits refuse most of the load).
//
// Signers: --agents agent keys (derived from a fixed seed, so a rerun finds them registered),
// registered with RegisterAgent (Trader) for the ten dev accounts, 16 at most each, through
// PerpdClient. Every action of the timed section is signed before it starts (Worker threads,
// libsecp256k1), so the generator only posts ready request bodies. Each signer's actions carry
// consecutive nonces and go out lowest first, never 64 or more above its oldest one without a reply
// (docs/protocol.md#nonces); an action refused at admission (nonce not consumed) is sent again.
// Modes:
//   capacity  closed loop: --in-flight requests at all times; each pair is a resting PlaceOrder
//             (Gtc, away from the mark, client id) then, once it is in a block, its CancelOrder
//             by client id. Figure: actions/s accepted, latency.
//   open      the same actions offered at --rate per second on a fixed schedule whatever the
//             replies (an action held back by its signer's window is sent late; its latency counts
//             from when it was due). Figures: achieved rate, p50/p90/p99 latency.
//   batch     closed loop of BatchPlaceOrder with --batch-size IOC orders (away from the mark:
//             placed and cancelled, no fills). Figure: orders/s accepted.
// Beside each figure: the node's CPU in cores and CPU µs per action (or order), per thread group,
// from /proc/PID (with --node-pid), and this generator's own CPU.
// Fetch is capped at BUN_CONFIG_MAX_HTTP_REQUESTS requests at once, read when fetch is first used,
// so without it in the environment the script runs itself again with it set.
import { availableParallelism, loadavg } from 'node:os'
import { amendExchangeConfig, batchPlaceOrder, cancelOrder, massCancel, placeOrder, registerAgent } from '../../src/client/actions.ts'
import { PerpdClient } from '../../src/client/perpd-client.ts'
import { RpcCallError, RpcClient } from '../../src/client/rpc-client.ts'
import { bytesToHex } from '../../src/lib/hex.ts'
import { keccak256 } from '../../src/lib/keccak.ts'
import { defineOptions, parseOptionsOrExit } from '../../src/lib/options.ts'
import { mulberry32Unit } from '../../src/lib/prng.ts'
import { DEV_PRIVATE_KEYS } from '../../src/node/dev-banner.ts'
import { addressOfPrivateKey } from '../../src/wire/signing.ts'
import { untilRecovered } from './bench-node.ts'
import { type SignJob, signBodies, signingLibrary } from './bench-sign.ts'
import { describeBlockPhases, meanMsBetween, readNodeMetrics } from './block-phases.ts'
import { AGENTS_MAX, LOAD_OPTIONS, WINDOW } from './load-options.ts'
import { type CpuSample, cpuBetween, describeCpu, sampleCpu } from './proc-cpu.ts'
import { measureRecovery } from './recovery-cost.ts'
import { percentile } from './stats.ts'

const OPTIONS = defineOptions({
  url: { type: 'string', required: true, valueName: 'URL', description: 'the node, http://127.0.0.1:PORT (only 127.0.0.1 / localhost)' },
  'node-pid': {
    type: 'integer',
    min: 1,
    max: 4_194_304,
    valueName: 'PID',
    description: "the node's process id, for its CPU use from /proc (without it, no CPU figures for the node)",
  },
  ...LOAD_OPTIONS,
})
const { values: flags } = parseOptionsOrExit(process.argv.slice(2), OPTIONS, {
  usage: 'bun scripts/bench/load.ts --url http://127.0.0.1:PORT [options]',
  summary: 'The /action load generator of scripts/bench/actions.ts (which starts the node itself).',
  program: 'bun scripts/bench/load.ts',
})

// Fetch reads its cap once; run again with it in the environment when it is missing.
if (process.env.BUN_CONFIG_MAX_HTTP_REQUESTS === undefined) {
  const child = Bun.spawn([process.execPath, ...process.argv.slice(1)], {
    env: { ...process.env, BUN_CONFIG_MAX_HTTP_REQUESTS: String(flags['max-http-requests']) },
    stdio: ['inherit', 'inherit', 'inherit'],
  })
  process.exit(await child.exited)
}

const url = new URL(flags.url)
if (url.hostname !== '127.0.0.1' && url.hostname !== 'localhost') {
  console.error(`load.ts drives only a node on this machine (127.0.0.1), not ${url.hostname}`)
  process.exit(2)
}
const baseUrl = url.origin
const ACTION_URL = `${baseUrl}/api/v1/action`
const mode = flags.mode
const seconds = flags.seconds
const agentCount = flags.agents
const nodePid = flags['node-pid']
const MARKET = 1 // BTC-USD of the dev genesis: price decimals 1, size decimals 4, mark 65,000.
const rand = mulberry32Unit(42)

const rpc = new RpcClient(baseUrl, 120_000)
await untilRecovered(baseUrl)
const network = (await rpc.query<{ network: string }>('getExchangeConfig')).data.network
const fmt = (n: number) => Math.round(n).toLocaleString('en-US')

console.log(
  `perpd /action bench, mode ${mode}: ${baseUrl}${nodePid === undefined ? '' : ` (node pid ${nodePid})`}, ${agentCount} agent signers of ${DEV_PRIVATE_KEYS.length} dev accounts, ` +
    `BUN_CONFIG_MAX_HTTP_REQUESTS=${process.env.BUN_CONFIG_MAX_HTTP_REQUESTS}; load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} CPUs (the node and this generator share them)`,
)

// ---- Signers: agents of the dev accounts ----

interface Agent {
  readonly index: number
  readonly key: string
  readonly address: string
  readonly master: number
}

/** Agent a: a fixed key (keccak256 of a label), the Trader agent of dev account a mod 10. */
const agents: Agent[] = Array.from({ length: agentCount }, (_, a) => {
  const key = bytesToHex(keccak256(new TextEncoder().encode(`perpd-bench-agent-${a}`)))
  return { index: a, key, address: addressOfPrivateKey(key), master: a % DEV_PRIVATE_KEYS.length }
})
const masters = DEV_PRIVATE_KEYS.map((key) => new PerpdClient({ url: baseUrl, privateKey: key, network }))

/** Sends through a master's client; an admission refusal (rate limit, full mempool) is retried. */
async function sendRetrying(client: PerpdClient, build: Parameters<PerpdClient['send']>[0]) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await client.send(build)
    } catch (err) {
      if (!(err instanceof RpcCallError) || attempt >= 20) throw err
      await Bun.sleep(err.reason === 'RATE_LIMITED' ? 1_100 : 100)
    }
  }
}

const registerStarted = performance.now()
let registered = 0
await Promise.all(
  masters.map(async (client, m) => {
    const mine = agents.filter((a) => a.master === m)
    if (mine.length === 0) return
    const have = new Set(
      (await rpc.query<{ agents: { address: string }[] }>('getAgents', { address: client.address })).data.agents.map((g) => g.address),
    )
    // At most 16 per account, so inside one nonce window; the master's client keeps it anyway.
    await Promise.all(
      mine
        .filter((a) => !have.has(a.address))
        .map(async (a) => {
          const reply = await sendRetrying(client, (nonce, net) =>
            registerAgent({ network: net, nonce, agent: a.address, role: 'Trader', name: `bench-${a.index}` }),
          )
          if (reply.status !== 'accepted')
            throw new Error(`RegisterAgent of bench agent ${a.index} for dev account #${m}: ${reply.reason.code} ${reply.reason.message}`)
          registered++
        }),
    )
  }),
)
// The dev genesis's 2,000 envelopes per block cap 200 ms blocks at 10,000 actions/s: the figure would
// measure the setting, not the node. The operator's way to change it on a running chain.
const maxTxWanted = flags['max-tx-per-block']
const maxTxBefore = (await rpc.query<{ max_tx_per_block: number }>('getExchangeConfig')).data.max_tx_per_block
if (maxTxWanted > maxTxBefore) {
  const reply = await sendRetrying(masters[0]!, () => amendExchangeConfig({ max_tx_per_block: maxTxWanted }))
  if (reply.status !== 'accepted') throw new Error(`AmendExchangeConfig: ${reply.reason.code} ${reply.reason.message}`)
  console.log(
    `max_tx_per_block: ${fmt(maxTxBefore)} -> ${fmt(maxTxWanted)} (AmendExchangeConfig by dev account #0; --max-tx-per-block 0 leaves it)`,
  )
} else {
  console.log(`max_tx_per_block: ${fmt(maxTxBefore)}`)
}

const firstNonce = await Promise.all(
  agents.map(async (a) => (await rpc.query<{ nonce: number }>('getNonce', { address: a.address })).data.nonce),
)
console.log(
  `signers: ${registered} agents registered now, ${agentCount - registered} already there (${((performance.now() - registerStarted) / 1000).toFixed(1)} s, not timed)`,
)

// ---- The plan: each agent's actions, nonce after nonce ----

/** One action of an agent: its step index is its nonce minus the agent's first nonce. */
interface Step {
  body: string
  /** The step (a PlaceOrder) that must be in a block first, or -1. */
  readonly after: number
  /** Orders in it (1, or the batch size). */
  readonly orders: number
}

// Capacity keeps 3,000 in flight: with each action waiting about a block time for its reply, 1,200
// capped a closed loop at 1,200 / 0.25 s whatever the node could do, and left it idle CPU.
// Batch: 1,000 in flight, since 150 (the default before 2026-11-27) capped the figure at what 150
// batches waiting for one 200 ms block each can carry (about 30,000 orders/s), not the node's.
const perAgentInFlight = Math.ceil((flags['in-flight'] ?? (mode === 'batch' ? 1_000 : 3_000)) / agentCount)
if (mode !== 'open' && perAgentInFlight > WINDOW / 2) {
  console.error(
    `--in-flight allows at most ${WINDOW / 2} per agent: ${agentCount * (WINDOW / 2)} with ${agentCount} agents (more agents: --agents, up to ${AGENTS_MAX})`,
  )
  process.exit(2)
}
const warmupSeconds = flags['warmup-seconds']
// Enough signed ahead for the run not to end early: capacity at 12,000 actions/s (the figure the
// node aims at), batch at 1,000 BatchPlaceOrder/s, open at its rate.
const maxActions =
  flags['max-actions'] ?? Math.ceil((mode === 'capacity' ? 12_000 : mode === 'open' ? flags.rate * 1.1 : 2_500) * (warmupSeconds + seconds))
const stepsPerAgent = mode === 'batch' ? Math.ceil(maxActions / agentCount) : 2 * Math.ceil(maxActions / agentCount / 2)

/** Client ids of this run: `RUN-agent-pair`, so a rerun on the same node reuses none. */
const RUN = Date.now().toString(36).slice(-5)

/** A resting order away from the mark: bids 55,000-60,000, asks 70,000-75,000 (nothing crosses). */
function restingPrice(bid: boolean): string {
  const off = rand() * 5_000
  return (bid ? 55_000 + off : 70_000 + off).toFixed(1)
}

const plans: { after: number; orders: number; action: Record<string, unknown> }[][] = agents.map((a) => {
  const steps: { after: number; orders: number; action: Record<string, unknown> }[] = []
  for (let i = 0; i < stepsPerAgent; i++) {
    if (mode === 'batch') {
      const orders = Array.from({ length: flags['batch-size'] }, () => {
        const bid = rand() < 0.5
        return {
          market_id: MARKET,
          side: bid ? ('Bid' as const) : ('Ask' as const),
          price: restingPrice(bid),
          qty: '0.001',
          tif: 'Ioc' as const,
          reduce_only: false,
        }
      })
      steps.push({ after: -1, orders: orders.length, action: batchPlaceOrder(orders) })
    } else if (i % 2 === 0) {
      const bid = rand() < 0.5
      steps.push({
        after: -1,
        orders: 1,
        action: placeOrder({
          market_id: MARKET,
          side: bid ? 'Bid' : 'Ask',
          price: restingPrice(bid),
          qty: '0.001',
          tif: 'Gtc',
          reduce_only: false,
          client_order_id: `${RUN}-${a.index}-${i >> 1}`,
        }),
      })
    } else {
      steps.push({ after: i - 1, orders: 1, action: cancelOrder({ market_id: MARKET, client_order_id: `${RUN}-${a.index}-${i >> 1}` }) })
    }
  }
  return steps
})

const signStarted = performance.now()
const jobs: SignJob[] = agents.map((a, ai) => ({
  key: a.key,
  items: plans[ai]!.map((s, i) => ({ action: s.action, nonce: firstNonce[ai]! + i })),
}))
const bodies = await signBodies(jobs, network, flags['sign-workers'])
const lanes = agents.map((a, ai) => ({
  agent: a,
  steps: plans[ai]!.map((s, i): Step => ({ body: bodies[ai]![i]!, after: s.after, orders: s.orders })),
  /** Per step: 0 not sent, 1 in flight, 2 done (in a block, or given up). */
  state: new Uint8Array(stepsPerAgent),
  /** The lowest step not done: the signer's lowest unused nonce is at least its nonce. */
  firstOpen: 0,
  inFlight: 0,
  /** Refused steps wait until then before they go again. */
  retryAt: 0,
  /** Nothing to send until one of its steps completes (open mode skips it meanwhile). */
  blocked: false,
}))
type Lane = (typeof lanes)[number]
plans.length = 0
jobs.length = 0
const totalSteps = stepsPerAgent * agentCount
console.log(
  `signed ${fmt(totalSteps)} actions (${mode === 'batch' ? `${fmt(totalSteps * flags['batch-size'])} orders, ` : ''}${stepsPerAgent} per agent) in ${((performance.now() - signStarted) / 1000).toFixed(1)} s with ${signingLibrary} on ${flags['sign-workers']} Worker threads (not timed)`,
)
// Measured while the node idles, before the load: a yardstick for this machine (recovery-cost.ts).
const recovery = measureRecovery()
const cores = availableParallelism()
console.log(
  `one signature recovery as the node admits an action: ${recovery.micros.toFixed(1)} µs (${recovery.library}, on this thread while the node idles; not timed)`,
)

// ---- The timed section ----

const counts = { accepted: 0, keptReject: 0, orders: 0, itemsRejected: 0, transportErrors: 0 }
const refusals = new Map<string, number>()
/** Latency (ms) of every action sent in the timed section, in completion order. */
const latencies: number[] = []
/** Open mode: how late each action went out after it was due (ms). */
const sendLag: number[] = []
/** The same latencies from when each was sent (the open loop's start a little after when due). */
const fromSentMs: number[] = []
let sending = true
/** When sending began (the warm-up), and when the timed section began and ended. */
let tSend = 0
let tStart = Number.POSITIVE_INFINITY
let tEnd = Number.POSITIVE_INFINITY
let inFlightTotal = 0
let inFlightMax = 0
let openBacklogMax = 0
let exhaustedAt: number | undefined
const HEADERS = { 'content-type': 'application/json' }

type ActionReplyJson = {
  result?: { status: string; events?: { sub_kind: string }[] }
  error?: { code: number; data?: { reason?: string } }
}

/**
 * --transport ws: the actions go as post frames (docs/websocket.md#posting-actions) over a few
 * connections, round robin; the frame's action is the body's params, cut from the signed body's text.
 */
class WsPoster {
  private readonly sockets: WebSocket[] = []
  private readonly pending = new Map<number, { resolve: (r: ActionReplyJson) => void; reject: (e: Error) => void }>()
  private nextId = 1
  private turn = 0

  async open(url: string, count: number): Promise<void> {
    for (let i = 0; i < count; i++) {
      const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/api/v1/ws`)
      await new Promise<void>((resolve, reject) => {
        socket.onopen = () => resolve()
        socket.onerror = () => reject(new Error('websocket did not open'))
      })
      socket.onmessage = (e) => {
        const f = JSON.parse(String(e.data)) as ActionReplyJson & { op?: string; id?: number }
        if (f.op !== 'post' || typeof f.id !== 'number') return
        const p = this.pending.get(f.id)
        if (p === undefined) return
        this.pending.delete(f.id)
        p.resolve(f)
      }
      socket.onclose = () => {
        for (const p of this.pending.values()) p.reject(new Error('websocket closed'))
        this.pending.clear()
      }
      this.sockets.push(socket)
    }
  }

  post(body: string): Promise<ActionReplyJson> {
    const at = body.indexOf('"params":')
    const id = this.nextId++
    const socket = this.sockets[this.turn++ % this.sockets.length]!
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject })
      socket.send(`{"op":"post","id":${id},"action":${body.slice(at + 9, -1)}}`)
    })
  }

  close(): void {
    for (const s of this.sockets) s.close()
  }
}

const wsPoster = flags.transport === 'ws' ? new WsPoster() : undefined
if (wsPoster !== undefined) await wsPoster.open(baseUrl, flags['ws-connections'])

/** Moves the lane's firstOpen past its done steps; false when every step is done. */
function advance(lane: Lane): boolean {
  while (lane.firstOpen < lane.steps.length && lane.state[lane.firstOpen] === 2) lane.firstOpen++
  return lane.firstOpen < lane.steps.length
}

/** The lowest step of a lane that may go now: not sent, its PlaceOrder done, inside the window. */
function sendable(lane: Lane): number {
  if (lane.blocked || !advance(lane) || lane.retryAt > performance.now()) return -1
  const end = Math.min(lane.steps.length, lane.firstOpen + WINDOW)
  for (let i = lane.firstOpen; i < end; i++) {
    if (lane.state[i] !== 0) continue
    const after = lane.steps[i]!.after
    if (after < 0 || lane.state[after] === 2) return i
  }
  lane.blocked = true
  return -1
}

function noteRefusal(reason: string): void {
  refusals.set(reason, (refusals.get(reason) ?? 0) + 1)
}

/** Posts one step; dueAt is when it should have gone out (latency counts from then). */
async function send(lane: Lane, i: number, dueAt: number): Promise<void> {
  const step = lane.steps[i]!
  lane.state[i] = 1
  const sentAt = performance.now()
  lane.inFlight++
  inFlightTotal++
  if (inFlightTotal > inFlightMax) inFlightMax = inFlightTotal
  let done = true
  try {
    const reply =
      wsPoster !== undefined
        ? await wsPoster.post(step.body)
        : ((await (await fetch(ACTION_URL, { method: 'POST', headers: HEADERS, body: step.body })).json()) as ActionReplyJson)
    const now = performance.now()
    if (reply.error !== undefined) {
      const reason = reply.error.data?.reason ?? String(reply.error.code)
      if (now >= tStart) noteRefusal(reason)
      // Not consumed: send it again shortly. NONCE_REPLAY: the nonce is used or pending (a
      // resend after a transport error whose first try landed), so the step is done.
      if (reason !== 'NONCE_REPLAY') done = false
    } else {
      // Latency of every action sent in the timed section; the counts of those in a block in it.
      if (dueAt >= tStart) {
        latencies.push(now - dueAt)
        fromSentMs.push(now - sentAt)
      }
      if (now < tStart || now > tEnd) {
        /* warm-up, or after the timed section */
      } else if (reply.result!.status === 'accepted') {
        counts.accepted++
        let rejected = 0
        if (step.orders > 1) for (const e of reply.result!.events ?? []) if (e.sub_kind === 'BatchItemRejected') rejected++
        counts.orders += step.orders - rejected
        counts.itemsRejected += rejected
      } else counts.keptReject++
    }
  } catch {
    // Outcome unknown: sent again; if the first try landed, the resend gets NONCE_REPLAY.
    if (performance.now() >= tStart) counts.transportErrors++
    done = false
  }
  lane.state[i] = done ? 2 : 0
  lane.inFlight--
  inFlightTotal--
  lane.blocked = false
  if (!done) {
    lane.retryAt = performance.now() + 25
    setTimeout(() => pump(lane), 30)
  } else pump(lane)
}

/** Closed loop: keeps the lane's share of --in-flight going. */
function pumpClosed(lane: Lane): void {
  while (sending && lane.inFlight < perAgentInFlight) {
    const i = sendable(lane)
    if (i < 0) return
    void send(lane, i, performance.now())
  }
}

// Open loop: action k is due at tSend + k / rate, taken from the agents in turn.
let dueCount = 0
let sentCount = 0
let cursor = 0
function dispatchOpen(): void {
  if (!sending) return
  const now = performance.now()
  dueCount = Math.floor(((now - tSend) * flags.rate) / 1000) + 1
  while (sentCount < dueCount) {
    let picked = -1
    let lane: Lane | undefined
    for (let tries = 0; tries < lanes.length && picked < 0; tries++) {
      lane = lanes[cursor]!
      cursor = (cursor + 1) % lanes.length
      picked = sendable(lane)
    }
    if (picked < 0) break
    const dueAt = tSend + (sentCount * 1000) / flags.rate
    if (dueAt >= tStart) sendLag.push(now - dueAt)
    sentCount++
    void send(lane!, picked, dueAt)
  }
  const backlog = dueCount - sentCount
  if (backlog > openBacklogMax && now >= tStart) openBacklogMax = backlog
}

/** Marks the time every signed action is done (then the timed section ends early). */
function checkExhausted(): void {
  if (exhaustedAt === undefined && !lanes.some(advance)) exhaustedAt = performance.now()
}

/** After a completion: the closed loop sends the next; the open loop's timer does (every 1 ms). */
function pump(lane: Lane): void {
  if (mode !== 'open') pumpClosed(lane)
}

const heightAt = async () => (await rpc.query('getExchangeConfig')).chain_height
Bun.gc(true)
/** Runs the load until `until` (or until every signed action is done). */
async function runUntil(until: number): Promise<void> {
  while (performance.now() < until && exhaustedAt === undefined) {
    if (mode === 'open') dispatchOpen()
    checkExhausted()
    await Bun.sleep(mode === 'open' ? 1 : 5)
  }
}
tSend = performance.now()
if (mode !== 'open') for (const lane of lanes) pumpClosed(lane)
await runUntil(tSend + warmupSeconds * 1000)
if (exhaustedAt !== undefined) {
  console.error('every signed action was used in the warm-up: raise --max-actions')
  process.exit(1)
}
const h0 = await heightAt()
const metrics0 = await readNodeMetrics(baseUrl)
const generatorCpu0 = process.cpuUsage()
const node0: CpuSample | undefined = nodePid === undefined ? undefined : sampleCpu(nodePid)
tStart = performance.now()
await runUntil(tStart + seconds * 1000)
tEnd = performance.now()
sending = false
const node1 = nodePid === undefined ? undefined : sampleCpu(nodePid)
const generatorCpu = process.cpuUsage(generatorCpu0)
const h1 = await heightAt()
const metrics1 = await readNodeMetrics(baseUrl)
// How far the history index (its derive stage) trails the tip as the timed section ends: a figure
// the node sustains keeps it within a block or two.
const historyAtEnd = await fetch(`${baseUrl}/api/v1/status`)
  .then((r) => (r.ok ? (r.json() as Promise<{ node_tip?: number; derive_watermark?: number | null }>) : undefined))
  .catch(() => undefined)
// Let what is in flight land, so the node is idle when this returns (bounded).
const drainUntil = performance.now() + 30_000
while (inFlightTotal > 0 && performance.now() < drainUntil) await Bun.sleep(20)
wsPoster?.close()

// ---- Report ----

const elapsed = (tEnd - tStart) / 1000
latencies.sort((a, b) => a - b)
const pct = (p: number) => percentile(latencies, p).toFixed(1)
const refused = [...refusals].map(([r, n]) => `${fmt(n)} ${r}`).join(', ') || '0'
const ended =
  exhaustedAt === undefined ? '' : ` (ran out of signed actions after ${((exhaustedAt - tStart) / 1000).toFixed(1)} s: raise --max-actions)`
const tally = `${fmt(counts.accepted)} accepted, ${fmt(counts.keptReject)} kept-reject, refused ${refused}${counts.transportErrors > 0 ? `, ${fmt(counts.transportErrors)} transport errors` : ''}, in ${elapsed.toFixed(2)} s${ended}`
const actionsDone = counts.accepted + counts.keptReject
if (mode === 'capacity') {
  console.log(
    `capacity: ${fmt(counts.accepted / elapsed)} actions/s accepted over ${flags.transport === 'ws' ? `${flags['ws-connections']} WebSocket connections` : 'HTTP'} (${tally}); closed loop, ${fmt(perAgentInFlight * agentCount)} in flight (${agentCount} agents x ${perAgentInFlight}), each a PlaceOrder then its CancelOrder by client id`,
  )
  // Every action is one recovery at least: the cores could admit no more even doing nothing else.
  const ceiling = (cores * 1e6) / recovery.micros
  console.log(
    `  against the recoveries alone: ${cores} cores / ${recovery.micros.toFixed(1)} µs = ${fmt(ceiling)} actions/s if they did nothing else (this generator shares them); this figure is ${((100 * counts.accepted) / elapsed / ceiling).toFixed(0)}% of it`,
  )
} else if (mode === 'open') {
  sendLag.sort((a, b) => a - b)
  console.log(
    `open: offered ${fmt(flags.rate)}/s, achieved ${fmt(actionsDone / elapsed)}/s in blocks, ${fmt(counts.accepted / elapsed)}/s accepted (${tally}); PlaceOrder then CancelOrder by client id`,
  )
  console.log(
    `  sending: up to ${fmt(inFlightMax)} in flight; p99 send lag ${percentile(sendLag, 99).toFixed(1)} ms behind schedule; ${openBacklogMax === 0 ? 'no action held back by a full nonce window' : `up to ${fmt(openBacklogMax)} actions due but held back by full nonce windows (the node is not keeping up)`}`,
  )
} else {
  console.log(
    `batch: ${fmt(counts.orders / elapsed)} orders/s accepted, ${fmt(counts.accepted / elapsed)} BatchPlaceOrder/s of ${flags['batch-size']} IOC orders (${tally}; ${fmt(counts.itemsRejected)} items rejected); closed loop, ${fmt(perAgentInFlight * agentCount)} in flight`,
  )
}
console.log(
  `  /action latency${mode === 'open' ? ' from when due' : ''}: p50 ${pct(50)} ms, p90 ${pct(90)} ms, p99 ${pct(99)} ms, max ${latencies.length === 0 ? 'NaN' : latencies[latencies.length - 1]!.toFixed(1)} ms`,
)
const blocks = h1 - h0
const historyLag =
  historyAtEnd?.node_tip === undefined || historyAtEnd.derive_watermark == null
    ? 'the history index did not say how far behind it is'
    : `the history index ${fmt(historyAtEnd.node_tip - historyAtEnd.derive_watermark)} blocks behind at the end`
console.log(
  `  blocks: ${blocks} in the timed section (${blocks > 0 ? fmt(actionsDone / blocks) : 0} actions per block), after ${warmupSeconds} s of warm-up; ${historyLag}`,
)
if (metrics0 !== undefined && metrics1 !== undefined)
  console.log(`  where a block's time went (perpd_block_phase_seconds, means): ${describeBlockPhases(metrics0.phases, metrics1.phases)}`)
// The node's own view of the same latency: what the client adds is the loopback, and this process
// and the node sharing the cores (scripts/bench/ws-loopback.ts measures the loopback alone).
const nodeMeanMs = meanMsBetween(metrics0?.actionSeconds, metrics1?.actionSeconds)
if (nodeMeanMs !== undefined && fromSentMs.length > 0)
  console.log(
    `  mean /action latency: ${(fromSentMs.reduce((a, b) => a + b, 0) / fromSentMs.length).toFixed(1)} ms here from sending, ${nodeMeanMs.toFixed(1)} ms in the node from the request to its reply (perpd_action_seconds)`,
  )
if (node0 !== undefined && node1 !== undefined) {
  const units = mode === 'batch' ? counts.orders : actionsDone
  console.log(`  ${describeCpu('node', cpuBetween(node0, node1), units, mode === 'batch' ? 'order' : 'action')}`)
  if (mode === 'batch')
    console.log(`  node: ${fmt((cpuBetween(node0, node1).cpuSeconds * 1e6) / Math.max(1, actionsDone))} µs CPU per BatchPlaceOrder`)
} else if (nodePid !== undefined) {
  console.log(`  node CPU: /proc/${nodePid} could not be read`)
} else {
  console.log('  node CPU: not measured (give --node-pid)')
}
const genSeconds = (generatorCpu.user + generatorCpu.system) / 1e6
const genPerAction = actionsDone > 0 ? ` (${fmt((genSeconds * 1e6) / actionsDone)} µs per action)` : ''
console.log(`  load generator CPU: ${(genSeconds / elapsed).toFixed(2)} cores${genPerAction}; load average now ${loadavg()[0]!.toFixed(1)}`)

// Leaves no bench order resting on a node that keeps running.
if (mode !== 'batch') {
  await Promise.all(masters.map((m) => sendRetrying(m, massCancel({ market_id: MARKET, by: 'Owner' })).catch(() => undefined)))
}
process.exit(0)

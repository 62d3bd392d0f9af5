// Where /action's HTTP requests should be read: on the block thread, which hands each body to an
// admission thread (the node as built, src/api/admission/admission-pool.ts), or on the admission
// threads themselves, each a Bun.serve on the same port with reusePort (the kernel spreads the
// connections over them), which hand only the prepared action to the block thread. Measures the
// block thread's CPU per request in each, which is what the choice changes, and the server's in all.
//
// Nothing of the node runs here but its stateless admission (action-intake.ts, the real one, on a
// real signed PlaceOrder: parse, schemas, digest, recovery, tx hash). The block thread's stateful
// part is left out in both (it is the same in both), and a request is answered as soon as its
// prepared action reaches the block thread, with a reply of an accepted order's size. So the block
// thread's figure is the transport's cost alone: the HTTP request and response, or the messages.
// The server runs as a child process (its threads' CPU from /proc), the client as another, with
// --in-flight requests on keep-alive connections; the two modes alternate, --pairs times.
//   bun scripts/bench/http-threads.ts [--pairs 2] [--threads 2] [--seconds 6] [--in-flight 256]
import { actionIntake } from '../../src/api/admission/action-intake.ts'
import { placeOrder } from '../../src/client/actions.ts'
import { hexToBytes } from '../../src/lib/hex.ts'
import { keccakWasmReady } from '../../src/lib/keccak.ts'
import { defineOptions, parseOptionsOrExit } from '../../src/lib/options.ts'
import { DEV_PRIVATE_KEYS } from '../../src/node/dev-banner.ts'
import { actionBody, signL1 } from './bench-sign.ts'
import { cpuBetween, describeCpu, sampleCpu } from './proc-cpu.ts'
import { percentile } from './stats.ts'

const MODES = ['block-thread', 'reuse-port'] as const
type Mode = (typeof MODES)[number]

const { values: flags } = parseOptionsOrExit(
  process.argv.slice(2),
  defineOptions({
    pairs: { type: 'integer', default: 2, min: 1, max: 20, description: 'runs of each mode, alternated' },
    threads: { type: 'integer', default: 2, min: 1, max: 16, description: 'admission threads' },
    seconds: { type: 'integer', default: 6, min: 1, max: 120, description: 'timed seconds of each run (after 1 s of warm-up)' },
    'in-flight': { type: 'integer', default: 256, min: 1, max: 16_384, description: 'requests the client keeps in flight' },
    role: { type: 'string', default: 'bench', description: 'internal: bench, server or client' },
    mode: { type: 'string', default: 'block-thread', description: 'internal: the server mode' },
    url: { type: 'string', default: '', description: 'internal: the server the client drives' },
    'server-pid': { type: 'integer', default: 0, min: 0, max: 4_194_304, description: "internal: the server's process id" },
  }),
  {
    usage: 'bun scripts/bench/http-threads.ts [options]',
    summary: "The block thread's CPU per /action request read there (as built) or on the admission threads with reusePort.",
    program: 'bun scripts/bench/http-threads.ts',
  },
)

const NETWORK = 'devnet'
const PATH = '/api/v1/action'

/** An accepted PlaceOrder's reply of about the node's size (two events). */
function replyBody(id: unknown, txHash: string): string {
  const event = {
    kind: 'OrderAccepted',
    sub: null,
    market: 'BTC-PERP',
    account: '0x'.padEnd(42, '1'),
    body: { oid: '1', px: '55000.0', sz: '0.001' },
  }
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    result: { status: 'accepted', tx_hash: txHash, height: 1, envelope_idx: 0, events: [event, event] },
  })
}

/** What the block thread needs of an intake in both modes: the request id and the prepared action. */
function prepared(text: string): { id: unknown; txHash: string; ok: boolean } {
  const intake = actionIntake(text, NETWORK)
  if (intake.kind !== 'action' || !intake.prepared.ok || !intake.prepared.recovered.ok) return { id: null, txHash: '', ok: false }
  return { id: intake.id, txHash: intake.prepared.recovered.txHash, ok: true }
}

const workerSource = `
  import { actionIntake } from ${JSON.stringify(new URL('../../src/api/admission/action-intake.ts', import.meta.url).href)}
  import { keccakWasmReady } from ${JSON.stringify(new URL('../../src/lib/keccak.ts', import.meta.url).href)}
  await keccakWasmReady
  const NETWORK = ${JSON.stringify(NETWORK)}
  const prepared = ${prepared.toString()}
  const replyBody = ${replyBody.toString()}
  let pending = []
  const waiting = new Map()
  let nextId = 0
  let flushing = false
  const flush = () => { flushing = false; const batch = pending; pending = []; self.postMessage({ type: 'intakes', batch }) }
  self.onmessage = (event) => {
    const m = event.data
    if (m.type === 'bodies') {
      // block-thread mode: the block thread sent the bodies; the answers go back in one message.
      self.postMessage({ type: 'answers', answers: m.bodies.map((b) => ({ rid: b.rid, ...prepared(b.text) })) })
    } else if (m.type === 'serve') {
      // reuse-port mode: this thread reads the requests itself.
      const server = Bun.serve({
        hostname: '127.0.0.1',
        port: m.port,
        reusePort: true,
        async fetch(req) {
          const text = await req.text()
          const p = prepared(text)
          const rid = nextId++
          pending.push({ rid, ...p })
          if (!flushing) { flushing = true; setImmediate(flush) }
          return new Promise((resolve) => waiting.set(rid, resolve))
        },
      })
      self.postMessage({ type: 'serving', port: server.port })
    } else if (m.type === 'results') {
      for (const r of m.results) {
        const resolve = waiting.get(r.rid)
        waiting.delete(r.rid)
        resolve(new Response(replyBody(r.id, r.txHash), { headers: { 'content-type': 'application/json' } }))
      }
    }
  }
  self.postMessage({ type: 'loaded' })
`

async function startThreads(count: number): Promise<Worker[]> {
  const url = URL.createObjectURL(new Blob([workerSource], { type: 'application/typescript' }))
  const workers = Array.from({ length: count }, () => new Worker(url))
  await Promise.all(
    workers.map(
      (w) => new Promise<void>((resolve) => w.addEventListener('message', (e) => e.data.type === 'loaded' && resolve(), { once: false })),
    ),
  )
  return workers
}

async function serve(mode: Mode): Promise<void> {
  const threads = await startThreads(flags.threads)
  if (mode === 'block-thread') {
    // As the node: bodies of a turn go to the least busy thread in one message; answers come back.
    const waiting = new Map<number, (r: Response) => void>()
    const busy = threads.map(() => 0)
    let pending: { rid: number; text: string }[] = []
    let nextId = 0
    let flushing = false
    const flush = () => {
      flushing = false
      let t = 0
      for (let i = 1; i < busy.length; i++) if (busy[i]! < busy[t]!) t = i
      busy[t]! += pending.length
      threads[t]!.postMessage({ type: 'bodies', bodies: pending })
      pending = []
    }
    threads.forEach((w, t) => {
      w.onmessage = (e) => {
        if (e.data.type !== 'answers') return
        busy[t]! -= e.data.answers.length
        for (const a of e.data.answers) {
          const resolve = waiting.get(a.rid)!
          waiting.delete(a.rid)
          resolve(new Response(replyBody(a.id, a.txHash), { headers: { 'content-type': 'application/json' } }))
        }
      }
    })
    const server = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      async fetch(req) {
        const text = await req.text()
        const rid = nextId++
        pending.push({ rid, text })
        if (!flushing) {
          flushing = true
          setImmediate(flush)
        }
        return new Promise<Response>((resolve) => waiting.set(rid, resolve))
      },
    })
    console.log(`listening ${server.port}`)
    return
  }
  // reuse-port: the threads serve; this thread gets the prepared actions and answers each in a message per turn.
  let port = 0
  for (const w of threads) {
    w.onmessage = (e) => {
      if (e.data.type === 'intakes') w.postMessage({ type: 'results', results: e.data.batch })
    }
    port = await new Promise<number>((resolve) => {
      w.addEventListener('message', (e) => e.data.type === 'serving' && resolve(e.data.port))
      w.postMessage({ type: 'serve', port })
    })
  }
  console.log(`listening ${port}`)
}

async function client(): Promise<void> {
  if (!(await keccakWasmReady)) throw new Error('the WebAssembly keccak did not start')
  const key = hexToBytes(DEV_PRIVATE_KEYS[1]!)
  const action = placeOrder({
    market_id: 1,
    side: 'Bid',
    price: '55000.0',
    qty: '0.001',
    tif: 'Gtc',
    reduce_only: false,
    client_order_id: 'h',
  })
  const body = actionBody(action, 1_800_000_000_000, signL1(key, action, 1_800_000_000_000, NETWORK))
  const url = flags.url + PATH
  let timing = false
  let count = 0
  const latencies: number[] = []
  let stop = false
  const loop = async () => {
    while (!stop) {
      const sent = performance.now()
      const res = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json' } })
      const reply = (await res.json()) as { result?: { status?: string } }
      if (reply.result?.status !== 'accepted') throw new Error(`unexpected reply ${JSON.stringify(reply)}`)
      if (timing) {
        count++
        latencies.push(performance.now() - sent)
      }
    }
  }
  const loops = Array.from({ length: flags['in-flight'] }, loop)
  await Bun.sleep(1_000)
  timing = true
  const before = sampleCpu(flags['server-pid'])
  const started = performance.now()
  await Bun.sleep(flags.seconds * 1_000)
  timing = false
  const after = sampleCpu(flags['server-pid'])
  const wall = (performance.now() - started) / 1000
  stop = true
  await Promise.all(loops)
  latencies.sort((a, b) => a - b)
  const use = before !== undefined && after !== undefined ? cpuBetween(before, after) : undefined
  const main = use?.groups.find((g) => g.group === 'main')?.cores ?? 0
  console.log(
    `${Math.round(count / wall).toLocaleString('en-US')} requests/s, p50 ${percentile(latencies, 0.5).toFixed(1)} ms; block thread ${main.toFixed(2)} cores, ${((main * wall * 1e6) / count).toFixed(1)} µs per request; ${use === undefined ? '' : describeCpu('server', use, count, 'request')}`,
  )
}

async function bench(): Promise<void> {
  console.log(
    `/action over HTTP, ${flags.threads} admission threads, ${flags['in-flight']} requests in flight, ${flags.seconds} s a run; the client shares the machine's cores`,
  )
  for (let pair = 0; pair < flags.pairs; pair++) {
    for (const mode of MODES) {
      const server = Bun.spawn(
        [process.execPath, import.meta.path, '--role', 'server', '--mode', mode, '--threads', String(flags.threads)],
        {
          stdout: 'pipe',
          stderr: 'inherit',
        },
      )
      const reader = server.stdout.getReader()
      let out = ''
      while (!out.includes('\n')) {
        const { value, done } = await reader.read()
        if (done) throw new Error(`the ${mode} server exited before listening`)
        out += new TextDecoder().decode(value)
      }
      const port = Number(out.match(/listening (\d+)/)?.[1])
      const run = Bun.spawn(
        [
          process.execPath,
          import.meta.path,
          '--role',
          'client',
          '--url',
          `http://127.0.0.1:${port}`,
          '--server-pid',
          String(server.pid),
          '--seconds',
          String(flags.seconds),
          '--in-flight',
          String(flags['in-flight']),
        ],
        { stdout: 'pipe', stderr: 'inherit', env: { ...process.env, BUN_CONFIG_MAX_HTTP_REQUESTS: String(flags['in-flight'] * 2) } },
      )
      const line = (await new Response(run.stdout).text()).trim()
      await run.exited
      server.kill()
      await server.exited
      console.log(`${mode.padEnd(12)} ${line}`)
    }
  }
}

if (flags.role === 'server') await serve(flags.mode as Mode)
else if (flags.role === 'client') await client()
else await bench()

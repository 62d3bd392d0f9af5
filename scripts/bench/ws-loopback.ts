// The floor under the node's /action latency that is the machine's, not the node's: how long a
// WebSocket frame written on 127.0.0.1 takes to reach a Bun client's message handler, with no node
// at all. A server process (this script with --serve) writes, every --interval-ms, --frames frames
// on each of --connections connections, in --chunks corked writes --chunk-gap-us apart, the way the
// node writes a block's post replies (a hundred at a time, ChainNode.reply); each frame carries its
// write time. The client (this process) prints how long after that each frame reached its handler.
// Both processes share the machine's cores, as the node and scripts/bench/actions.ts do.
//   bun scripts/bench/ws-loopback.ts [--connections 8] [--frames 50] [--chunks 4] [--seconds 10]
// The defaults are a 400-action block at 2,000 actions/s over actions.ts's 8 connections.
import { parseOptionsOrExit } from '../../src/lib/options.ts'
import { percentile } from './stats.ts'

const { values: flags } = parseOptionsOrExit(
  process.argv.slice(2),
  {
    connections: { type: 'integer', default: 8, min: 1, max: 1_000, description: 'WebSocket connections' },
    frames: { type: 'integer', default: 50, min: 1, max: 10_000, description: 'frames a block on each connection' },
    chunks: { type: 'integer', default: 4, min: 1, max: 100, description: 'corked writes a block, each a share of the frames' },
    'chunk-gap-us': {
      type: 'integer',
      default: 600,
      min: 0,
      max: 100_000,
      description: 'µs of busy time between two chunks (building the next replies)',
    },
    'interval-ms': { type: 'integer', default: 200, min: 10, max: 10_000, description: 'time between blocks' },
    'frame-bytes': { type: 'integer', default: 500, min: 50, max: 65_536, description: 'length of a frame' },
    seconds: { type: 'integer', default: 10, min: 1, max: 600, description: 'seconds measured' },
    serve: { type: 'boolean', description: 'internal: run as the server process' },
  },
  {
    usage: 'bun scripts/bench/ws-loopback.ts [options]',
    summary: 'Delay of WebSocket frames on 127.0.0.1 between two Bun processes, in blocks of corked writes.',
    program: 'bun scripts/bench/ws-loopback.ts',
  },
)

/** Absolute time in ms, comparable between the two processes (same clock, sub-ms precision). */
const nowAbsMs = () => performance.timeOrigin + performance.now()

if (flags.serve) {
  const sockets: Bun.ServerWebSocket<unknown>[] = []
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: (req, srv) => (srv.upgrade(req) ? undefined : new Response('websocket only', { status: 400 })),
    websocket: {
      open: (ws) => void sockets.push(ws),
      message: () => {},
    },
  })
  console.log(`port ${server.port}`)
  const padding = 'x'.repeat(Math.max(0, flags['frame-bytes'] - 40))
  const perChunk = Math.ceil(flags.frames / flags.chunks)
  setInterval(() => {
    for (let sent = 0; sent < flags.frames; sent += perChunk) {
      if (sent > 0) {
        const until = performance.now() + flags['chunk-gap-us'] / 1_000
        while (performance.now() < until) {}
      }
      const n = Math.min(perChunk, flags.frames - sent)
      for (const ws of sockets)
        ws.cork(() => {
          for (let i = 0; i < n; i++) ws.send(`{"t":${nowAbsMs().toFixed(3)},"p":"${padding}"}`)
        })
    }
  }, flags['interval-ms'])
} else {
  const child = Bun.spawn([process.execPath, import.meta.path, ...process.argv.slice(2), '--serve'], { stdout: 'pipe', stderr: 'inherit' })
  const reader = child.stdout.getReader()
  let head = ''
  while (!/port \d+\n/.test(head)) {
    const { value, done } = await reader.read()
    if (done) throw new Error(`the server process ended before it listened: ${head}`)
    head += new TextDecoder().decode(value)
  }
  const port = Number(/port (\d+)/.exec(head)![1])
  const delaysMs: number[] = []
  let measuring = false
  const sockets = await Promise.all(
    Array.from(
      { length: flags.connections },
      () =>
        new Promise<WebSocket>((resolve, reject) => {
          const ws = new WebSocket(`ws://127.0.0.1:${port}`)
          ws.onopen = () => resolve(ws)
          ws.onerror = () => reject(new Error('websocket did not open'))
          ws.onmessage = (e) => {
            const arrived = nowAbsMs()
            if (!measuring) return
            const text = e.data as string
            delaysMs.push(arrived - Number(text.slice(5, text.indexOf(','))))
          }
        }),
    ),
  )
  await Bun.sleep(1_000) // warm-up, not measured
  measuring = true
  await Bun.sleep(flags.seconds * 1_000)
  measuring = false
  for (const ws of sockets) ws.close()
  child.kill()
  delaysMs.sort((a, b) => a - b)
  const p = (q: number) => percentile(delaysMs, q).toFixed(2)
  console.log(
    `WebSocket frames on 127.0.0.1, no node: ${flags.connections} connections x ${flags.frames} frames every ${flags['interval-ms']} ms in ${flags.chunks} corked writes ${flags['chunk-gap-us']} µs apart; ${delaysMs.length.toLocaleString('en-US')} frames`,
  )
  console.log(`  from the write to the client's handler: p10 ${p(10)} ms, p50 ${p(50)} ms, p90 ${p(90)} ms, p99 ${p(99)} ms`)
  console.log(
    `  load average now ${
      (
        await Bun.file('/proc/loadavg')
          .text()
          .catch(() => '?')
      ).split(' ')[0]
    } on ${navigator.hardwareConcurrency} CPUs`,
  )
}

// `perpd demo` (`npm run demo`; README.md, docs/operator.md#demo): a development node with simulated
// traders. The node runs as a child process (this program again, `start --dev`: `bun src/main.ts`
// from the sources, the executable itself when compiled) in the same process group, so a Ctrl-C in
// the terminal reaches both; the traders (traders.ts) run in this process and talk to the node
// through the project's client like any other program. SIGINT or SIGTERM (or --seconds) stops the
// traders, then the node by its PID, removes the temporary data directory and exits 0.
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { DemoTraders, FUNDER_INDEX, LIQUIDATOR_INDEX, MAKER_INDEX, TAKER_INDEXES, TRIGGER_INDEX } from './traders.ts'

export interface DemoOptions {
  /** The node's API port (0: any free port). */
  readonly port: number
  /** The node's data directory; undefined: a temporary one, removed at exit. */
  readonly dataDir: string | undefined
  /** Stop after this many seconds; undefined: at SIGINT or SIGTERM. */
  readonly seconds: number | undefined
  readonly seed: number
}

/** How long the node may take to listen and replay its data directory. */
const NODE_READY_TIMEOUT_MS = 120_000
/** How long the node may take to stop after SIGTERM before it is killed. */
const NODE_STOP_TIMEOUT_MS = 20_000
const STATUS_EVERY_MS = 15_000
/** The node's last output lines kept, shown when it fails. */
const TAIL_LINES = 60

const say = (line: string) => console.log(`demo: ${line}`)

/**
 * The command that runs this program's node: `bun src/main.ts` from the sources, or the compiled
 * executable itself (`bun build --compile` puts the sources under /$bunfs/, B:/~BUN/ on Windows, and
 * process.execPath is then the executable).
 */
export function nodeCommand(): string[] {
  const compiled = import.meta.path.startsWith('/$bunfs/') || /^[A-Za-z]:[\\/]~BUN[\\/]/.test(import.meta.path)
  return compiled ? [process.execPath] : [process.execPath, join(import.meta.dir, '..', 'main.ts')]
}

/** Runs the demo until a signal or --seconds; resolves with the exit code (0, or 1 when the node fails). */
export async function runDemo(options: DemoOptions): Promise<number> {
  const temporary = options.dataDir === undefined
  const dataDir = temporary ? mkdtempSync(join(tmpdir(), 'perpd-demo-')) : resolve(options.dataDir!)

  // Stop requests: a signal, --seconds, or the node going away.
  let requestStop!: (why: string) => void
  const stopRequested = new Promise<string>((r) => {
    requestStop = r
  })
  const onSignal = (signal: string) => () => requestStop(signal)
  const onInt = onSignal('SIGINT')
  const onTerm = onSignal('SIGTERM')
  process.on('SIGINT', onInt)
  process.on('SIGTERM', onTerm)

  const args = [
    'start',
    '--dev',
    '--data-dir',
    dataDir,
    '--host',
    '127.0.0.1',
    '--port',
    String(options.port),
    '--rate-limit-ip',
    '0',
    '--leaderboard-refresh-ms',
    '2000',
    '--log-format',
    'json',
  ]
  const node = Bun.spawn([...nodeCommand(), ...args], { stdin: 'ignore', stdout: 'pipe', stderr: 'pipe', env: process.env })
  // The node's log goes to DIR/node.log; its last lines are kept to show if it fails.
  const logFile = createWriteStream(join(dataDir, 'node.log'), { flags: 'a' })
  const tail: string[] = []
  let url: string | undefined
  let ready = false
  let wake: (() => void) | undefined
  const pump = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder()
    let partial = ''
    for await (const chunk of stream) {
      const text = decoder.decode(chunk, { stream: true })
      logFile.write(text)
      const lines = (partial + text).split('\n')
      partial = lines.pop()!
      for (const line of lines) {
        tail.push(line)
        if (tail.length > TAIL_LINES) tail.shift()
        url ??= line.match(/listening on (http:\/\/127\.0\.0\.1:\d+)/)?.[1]
        if (line.includes('ready at height')) ready = true
        wake?.()
      }
    }
  }
  const pumps = [pump(node.stdout), pump(node.stderr)]
  let nodeExit: number | undefined
  void node.exited.then((code) => {
    nodeExit = code
    requestStop('node')
    wake?.()
  })

  say(`starting a development node (pid ${node.pid}, data ${dataDir}${temporary ? ', removed at exit' : ''})`)
  const why = await Promise.race([
    stopRequested,
    (async () => {
      const deadline = Date.now() + NODE_READY_TIMEOUT_MS
      while (!(ready && url !== undefined) && nodeExit === undefined && Date.now() < deadline) {
        await new Promise<void>((r) => {
          wake = r
          setTimeout(r, 250)
        })
      }
      return ready && url !== undefined ? 'ready' : nodeExit !== undefined ? 'node' : 'timeout'
    })(),
  ])

  let traders: DemoTraders | undefined
  let statusTimer: ReturnType<typeof setInterval> | undefined
  let stopTimer: ReturnType<typeof setTimeout> | undefined
  let failed = why === 'timeout' || (why === 'node' && nodeExit !== 0)
  if (why === 'timeout') say(`the node was not ready within ${NODE_READY_TIMEOUT_MS / 1000} s`)
  if (why === 'ready') {
    traders = new DemoTraders({ url: url!, seed: options.seed, warn: (m) => say(m), info: (m) => say(m) })
    const started = await Promise.race([
      traders.start().then(
        () => true,
        (err: Error) => {
          say(`the traders did not start: ${err.message}`)
          return false
        },
      ),
      stopRequested.then(() => false),
    ])
    if (started) {
      printWhereToLook(url!, node.pid, traders, options)
      statusTimer = setInterval(() => {
        const s = traders!.stats
        say(
          `height ${s.height}: ${s.actions} actions (${s.refused} refused), ${s.fills} taker fills, ${s.triggers} trigger orders, ${s.liquidations} liquidations`,
        )
      }, STATUS_EVERY_MS)
      if (options.seconds !== undefined) stopTimer = setTimeout(() => requestStop(`${options.seconds} s`), options.seconds * 1_000)
    } else {
      // Not started because a stop came first, or because the traders failed (then the demo fails).
      const first = await Promise.race([stopRequested, Promise.resolve('traders')])
      if (first === 'traders') {
        failed = true
        requestStop('the traders did not start')
      }
    }
    const reason = await stopRequested
    say(`stopping (${reason})`)
    if (reason === 'node' && nodeExit !== 0) failed = true
  }

  // Stop: the traders first (they stop sending), then the node by its PID.
  clearInterval(statusTimer)
  clearTimeout(stopTimer)
  await traders?.stop()
  if (nodeExit === undefined) {
    node.kill('SIGTERM')
    const killer = setTimeout(() => node.kill('SIGKILL'), NODE_STOP_TIMEOUT_MS)
    await node.exited
    clearTimeout(killer)
  }
  await Promise.allSettled(pumps)
  await new Promise<void>((r) => logFile.end(() => r()))
  if (failed) {
    say(`the node exited with ${node.exitCode ?? node.signalCode}; its last lines:`)
    for (const line of tail) console.error(line)
  } else {
    say(`the node (pid ${node.pid}) stopped with ${node.exitCode ?? node.signalCode}`)
  }
  if (temporary) rmSync(dataDir, { recursive: true, force: true })
  else say(`data kept in ${dataDir} (node log: ${join(dataDir, 'node.log')})`)
  process.off('SIGINT', onInt)
  process.off('SIGTERM', onTerm)
  return failed ? 1 : 0
}

/** The banner: who trades, and the URLs, a curl line and a WebSocket one-liner to watch them with. */
function printWhereToLook(url: string, pid: number, traders: DemoTraders, options: DemoOptions): void {
  const ws = `${url.replace(/^http/, 'ws')}/api/v1/ws`
  const symbols = traders.markets.map((m) => m.symbol)
  const lines = [
    '',
    `perpd demo (seed ${options.seed}): a development node and simulated traders`,
    `  node           ${url} (node pid ${pid})`,
    `  market maker   dev account #${MAKER_INDEX} ${traders.maker.address}, through its agent ${traders.agent.address} (WebSocket posts), quoting ${symbols.join(', ')}`,
    `  takers         dev accounts ${TAKER_INDEXES.map((i) => `#${i}`).join(', ')} (IOC orders over HTTP)`,
    `  triggers       dev account #${TRIGGER_INDEX} (stop-market trigger orders)`,
    `  liquidations   now and then a fresh account funded by dev account #${FUNDER_INDEX} takes a position at the maximum leverage, the maker's walk leans against it and dev account #${LIQUIDATOR_INDEX} (Liquidator) liquidates it`,
    "  oracle         the node's dev quoter keeps XAU-USD quoted (dev account #7)",
    '',
    'Where to look (the candles, trades and leaderboard fill up within a minute):',
    `  books          ${url}/api/v1/market/orderbook/BTC-USD`,
    `  trades         ${url}/api/v1/market/trades/ETH-USD`,
    `  candles        ${url}/api/v1/candles?symbol=BTC-USD&interval=1m`,
    `  leaderboard    ${url}/api/v1/leaderboard?metric=volume`,
    `  markets        ${url}/api/v1/markets`,
    `  WebSocket      ${ws}`,
    '',
    `  curl -s '${url}/api/v1/market/trades/BTC-USD?limit=5'`,
    `  bun -e "const w=new WebSocket('${ws}');w.onopen=()=>w.send(JSON.stringify({op:'subscribe',topics:['trades.BTC-USD','candles.BTC-USD.1m']}));w.onmessage=(e)=>console.log(e.data)"`,
    '',
    options.seconds === undefined ? 'Ctrl-C stops the traders and the node.' : `Stops after ${options.seconds} s (or at Ctrl-C).`,
    '',
  ]
  console.log(lines.join('\n'))
}

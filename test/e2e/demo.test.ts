// `perpd demo` (README.md, docs/operator.md#demo) as a real process: it prints its URLs, the
// simulated traders make real activity (trades on several markets, books, candles, WebSocket trade
// frames), and SIGINT stops it with exit code 0 and no node process left behind.
import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { childEnv, PROJECT_ROOT } from '../support/child-process.ts'

/** Polls `check` until it returns a value (not undefined) or the deadline passes. */
async function until<T>(what: string, timeoutMs: number, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs
  let last: unknown
  while (Date.now() < deadline) {
    try {
      const v = await check()
      if (v !== undefined) return v
    } catch (err) {
      last = err
    }
    await Bun.sleep(500)
  }
  throw new Error(`timed out waiting for ${what}${last === undefined ? '' : ` (last error: ${(last as Error).message})`}`)
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

describe('perpd demo', () => {
  test('a dev node with traders: trades, books, candles, WebSocket; SIGINT exits 0 and stops the node', async () => {
    // --seconds bounds the run if the test fails half-way; the test stops it earlier with SIGINT.
    const proc = Bun.spawn(
      [process.execPath, join(PROJECT_ROOT, 'src/main.ts'), 'demo', '--port', '0', '--seconds', '240', '--seed', '7'],
      {
        cwd: PROJECT_ROOT,
        stdout: 'pipe',
        stderr: 'pipe',
        env: childEnv(),
      },
    )
    let text = ''
    let nodePid: number | undefined
    const pump = async (stream: ReadableStream<Uint8Array>) => {
      const decoder = new TextDecoder()
      for await (const chunk of stream) text += decoder.decode(chunk)
    }
    void pump(proc.stdout)
    void pump(proc.stderr)
    try {
      const [url, pid] = await until('the demo banner', 120_000, async () => {
        if (proc.exitCode !== null) throw new Error(`demo exited with ${proc.exitCode}: ${text}`)
        const m = text.match(/node\s+(http:\/\/127\.0\.0\.1:\d+) \(node pid (\d+)\)/)
        return m === null ? undefined : ([m[1]!, Number(m[2])] as const)
      }).catch((err: Error) => {
        throw new Error(`${err.message}\n${text}`)
      })
      expect(text).toContain('/api/v1/candles?symbol=BTC-USD')
      expect(text).toContain('bun -e "const w=new WebSocket(\'ws://')
      nodePid = pid
      expect(alive(pid)).toBe(true)

      // A WebSocket subscriber of the trades of every native market.
      const frames: { topic?: string; trades?: unknown[] }[] = []
      const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/api/v1/ws`)
      ws.onopen = () => ws.send(JSON.stringify({ op: 'subscribe', topics: ['trades.BTC-USD', 'trades.ETH-USD', 'trades.SOL-USD'] }))
      ws.onmessage = (e) => frames.push(JSON.parse(String(e.data)))

      // Trades on at least two markets.
      const traded = await until('trades on two markets', 90_000, async () => {
        const with_: string[] = []
        for (const symbol of ['BTC-USD', 'ETH-USD', 'SOL-USD']) {
          const res = await fetch(`${url}/api/v1/market/trades/${symbol}`)
          if (!res.ok) continue
          const body = (await res.json()) as { data: unknown[] }
          if (body.data.length > 0) with_.push(symbol)
        }
        return with_.length >= 2 ? with_ : undefined
      })
      expect(traded.length).toBeGreaterThanOrEqual(2)

      // Books with both sides.
      for (const symbol of ['BTC-USD', 'ETH-USD', 'SOL-USD']) {
        await until(`the ${symbol} book`, 30_000, async () => {
          const res = await fetch(`${url}/api/v1/market/orderbook/${symbol}`)
          if (!res.ok) return undefined
          const book = (await res.json()) as { data: { bids: unknown[]; asks: unknown[] } }
          return book.data.bids.length > 0 && book.data.asks.length > 0 ? true : undefined
        })
      }

      // Candles of a traded market (the history index follows the chain).
      const candles = await until('candles', 60_000, async () => {
        const res = await fetch(`${url}/api/v1/candles?symbol=${traded[0]}&interval=1m`)
        if (!res.ok) return undefined
        const rows = (await res.json()) as { n: number }[]
        return rows.length > 0 && rows.some((c) => c.n > 0) ? rows : undefined
      })
      expect(candles.length).toBeGreaterThan(0)

      // Trade frames on the WebSocket.
      await until('WebSocket trade frames', 60_000, async () =>
        frames.some((f) => f.topic?.startsWith('trades.') && (f.trades?.length ?? 0) > 0) ? true : undefined,
      )
      ws.close()

      // A liquidation: the gambler (a fresh account funded by dev account #6) goes long at 50x, the maker's
      // walk leans against it and dev account #9 liquidates it, about a minute after the traders start.
      await until('a liquidation', 180_000, async () => (/demo: liquidated 0x[0-9a-f]{40} \S+-USD/.test(text) ? true : undefined)).catch(
        (err: Error) => {
          throw new Error(`${err.message}\n${text}`)
        },
      )

      // SIGINT: exit 0, the node gone.
      proc.kill('SIGINT')
      const timer = setTimeout(() => proc.kill('SIGKILL'), 60_000)
      const code = await proc.exited
      clearTimeout(timer)
      expect(code).toBe(0)
      expect(text).toContain('demo: stopping (SIGINT)')
      await until('the node process to be gone', 10_000, async () => (alive(pid) ? undefined : true))
    } finally {
      if (proc.exitCode === null) proc.kill('SIGKILL')
      if (nodePid !== undefined && alive(nodePid)) process.kill(nodePid, 'SIGKILL')
    }
  }, 400_000)
})

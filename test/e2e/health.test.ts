// The probes tell the truth (docs/operations.md#health): each state is produced for real against a
// node process, never through a test-only switch.
//   recovering  a node restarted on a 20,000-block chain binds its port, then replays: /health 503
//               with the replay's progress, /health/live 200, every other route 503 RECOVERING
//               (JSON-RPC -32000, the WebSocket upgrade refused), then 200 ok
//   degraded    the history index cannot open its database (garbage in history.sqlite); another
//               process holds the history database's write lock, so the index falls behind
//   halted      the data directory's file system fills up (a 16 MB tmpfs): the block write fails,
//               both probes say halted with store_dirty, the process exits 70, a restart replays;
//               a stored block was altered: the replay fails, halted REPLAY_FAILED, exit 65

import { Database } from 'bun:sqlite'
import { afterEach, describe, expect, test } from 'bun:test'
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs'
import net from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type NodeProcess, removeDir, startNode, tempDataDir } from '../support/node-process.ts'
import { until } from '../support/poll.ts'
import { buildStoredChain, fastTempDir } from '../support/stored-chain.ts'

interface HealthBody {
  status: string
  height: number
  store_dirty: boolean
  reasons: { code: string; message: string; since_ms: number }[]
  replayed_height?: number
  target_height?: number
  blocks_per_sec?: number
}

interface Probe {
  readonly status: number
  readonly body: HealthBody
}

const running: NodeProcess[] = []
const dirs: string[] = []
const mounts: string[] = []

afterEach(async () => {
  for (const node of running.splice(0)) await node.stop('SIGKILL')
  for (const mnt of mounts.splice(0)) {
    if (Bun.spawnSync(['umount', mnt]).exitCode !== 0) Bun.spawnSync(['umount', '-l', mnt])
    rmSync(mnt, { recursive: true, force: true })
  }
  for (const dir of dirs.splice(0)) removeDir(dir)
})

async function probe(node: NodeProcess, path = '/api/v1/health'): Promise<Probe> {
  const r = await fetch(node.url + path)
  return { status: r.status, body: (await r.json()) as HealthBody }
}

async function post(node: NodeProcess, path: string, body: unknown): Promise<{ status: number; retryAfter: string | null; json: unknown }> {
  const r = await fetch(node.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  return { status: r.status, retryAfter: r.headers.get('retry-after'), json: await r.json() }
}

const codes = (p: Probe) => p.body.reasons.map((r) => r.code)

/**
 * Asks for the WebSocket upgrade of /api/v1/ws and returns the status line's code and what follows
 * the reply head so far (a refusal's body); the connection is closed as soon as the head is read.
 */
function wsUpgradeStatus(url: string): Promise<{ status: number; rest: string }> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve, reject) => {
    let text = ''
    const socket = net.connect({ host: hostname, port: Number(port) })
    const timer = setTimeout(() => {
      socket.destroy()
      reject(new Error('no reply to the upgrade in 20 s'))
    }, 20_000)
    socket.on('connect', () =>
      socket.write(
        `GET /api/v1/ws HTTP/1.1\r\nHost: ${hostname}:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
      ),
    )
    socket.on('data', (d: Buffer) => {
      text += d.toString('latin1')
      const end = text.indexOf('\r\n\r\n')
      if (end < 0) return
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1])
      // A refusal carries its JSON body; wait for it unless this is the switch to WebSocket.
      if (status !== 101 && !text.slice(end + 4).includes('}')) return
      clearTimeout(timer)
      socket.destroy()
      resolve({ status, rest: text.slice(end + 4) })
    })
    socket.on('error', (err) => {
      clearTimeout(timer)
      reject(err)
    })
  })
}

describe('recovering', () => {
  test('a restarted node answers while it replays: /health 503 recovering with progress, RECOVERING on every other route, then 200 ok', async () => {
    const dir = fastTempDir()
    dirs.push(dir)
    const tip = buildStoredChain(dir, { blocks: 20_000 })
    const node = await startNode({ dataDir: dir, waitReady: false })
    running.push(node)

    const progress: number[] = []
    const refused = { query: 0, action: 0, rest: 0, ws: 0 }
    let ready: Probe | undefined
    const deadline = Date.now() + 150_000
    while (ready === undefined && Date.now() < deadline) {
      const health = await probe(node)
      if (health.status === 200) {
        ready = health
        break
      }
      expect(health.status).toBe(503)
      expect(health.body).toMatchObject({ status: 'recovering', store_dirty: false, reasons: [], target_height: tip })
      expect(health.body.replayed_height).toBe(health.body.height)
      expect(health.body.replayed_height!).toBeLessThanOrEqual(tip)
      expect(typeof health.body.blocks_per_sec).toBe('number')
      progress.push(health.body.replayed_height!)

      const live = await probe(node, '/api/v1/health/live')
      // The same body, 200 (the node is alive), unless the replay ended in between.
      if (live.body.status === 'recovering') expect(live.status).toBe(200)

      // Each route refused while recovering; a reply from a node that became ready in between is
      // not counted (the replay ends while these run).
      const query = await post(node, '/api/v1/query', { jsonrpc: '2.0', id: 41, method: 'getHealth' })
      if (query.status === 503) {
        expect(query.retryAfter).toMatch(/^\d+$/)
        expect(query.json).toMatchObject({ jsonrpc: '2.0', id: 41, error: { code: -32000, data: { reason: 'RECOVERING' } } })
        expect((query.json as { error: { data: { retry_after_ms: number } } }).error.data.retry_after_ms).toBeGreaterThan(0)
        refused.query++
      }
      const batch = await post(node, '/api/v1/query', [
        { jsonrpc: '2.0', id: 1, method: 'getMarkets' },
        { jsonrpc: '2.0', id: 'b', method: 'getHealth' },
      ])
      if (batch.status === 503) {
        expect(batch.json).toMatchObject([
          { id: 1, error: { code: -32000, data: { reason: 'RECOVERING' } } },
          { id: 'b', error: { code: -32000, data: { reason: 'RECOVERING' } } },
        ])
      }
      const action = await post(node, '/api/v1/action', { jsonrpc: '2.0', id: 7, method: 'action', params: {} })
      if (action.status === 503) {
        expect(action.json).toMatchObject({ id: 7, error: { code: -32000, data: { reason: 'RECOVERING' } } })
        refused.action++
      }
      const rest = await fetch(`${node.url}/api/v1/markets`)
      if (rest.status === 503) {
        expect(rest.headers.get('retry-after')).toMatch(/^\d+$/)
        expect(await rest.json()).toMatchObject({ error: 'recovering', reason: 'RECOVERING' })
        refused.rest++
      } else {
        await rest.body?.cancel()
      }
      const upgrade = await wsUpgradeStatus(node.url)
      if (upgrade.status !== 101) {
        expect(upgrade.status).toBe(503)
        expect(upgrade.rest).toContain('"reason":"RECOVERING"')
        refused.ws++
      }
    }
    if (ready === undefined) throw new Error(`the node did not become ready:\n${node.output()}`)

    // The replay was seen, going forward only, and every route was refused at least once meanwhile.
    expect(progress.length).toBeGreaterThan(0)
    expect(progress).toEqual([...progress].sort((a, b) => a - b))
    expect(refused.query).toBeGreaterThan(0)
    expect(refused.action).toBeGreaterThan(0)
    expect(refused.rest).toBeGreaterThan(0)
    expect(refused.ws).toBeGreaterThan(0)

    expect(ready.body).toEqual({ status: 'ok', height: ready.body.height, store_dirty: false, reasons: [] })
    expect(ready.body.height).toBeGreaterThanOrEqual(tip)
    const query = await post(node, '/api/v1/query', { jsonrpc: '2.0', id: 1, method: 'getHealth' })
    expect(query.status).toBe(200)
    expect(query.json).toMatchObject({ result: { data: { status: 'ok' } } })
    expect((await wsUpgradeStatus(node.url)).status).toBe(101)

    const out = node.output()
    const replayed = /replayed 20000 blocks \(1 to 20000\) in (\d+) ms/.exec(out)
    expect(replayed).not.toBeNull()
    // Off a terminal, progress is a plain log line every few seconds (the first after 1 s).
    if (Number(replayed![1]) >= 2_000) expect(out).toMatch(/replaying block \d+ of 20000 \([\d.]+%\), \d+ blocks\/s, [^"]* left/)
    expect(out.indexOf('listening on')).toBeLessThan(out.indexOf('replayed 20000 blocks'))
  }, 240_000)
})

describe('degraded', () => {
  test('the history index cannot open its database: INDEXER_STOPPED, /health 503, /health/live 200, blocks still produced', async () => {
    const dir = tempDataDir()
    dirs.push(dir)
    // A history file that is not a database: the indexer thread cannot open it.
    writeFileSync(join(dir, 'history.sqlite'), Buffer.alloc(8_192, 0x5a))
    const node = await startNode({ dataDir: dir })
    running.push(node)
    const health = await until(
      'degraded',
      () => probe(node),
      (p) => codes(p).includes('INDEXER_STOPPED'),
      60_000,
    )
    expect(health.status).toBe(503)
    expect(health.body.status).toBe('degraded')
    expect(health.body.store_dirty).toBe(false)
    expect(health.body.reasons.find((r) => r.code === 'INDEXER_STOPPED')!.message).toContain('file is not a database')
    const live = await probe(node, '/api/v1/health/live')
    expect(live.status).toBe(200)
    expect(live.body.status).toBe('degraded')
    // Degraded is not recovering: the chain goes on and answers.
    await until(
      'a later block',
      () => probe(node),
      (p) => p.body.height > health.body.height + 2,
      60_000,
    )
    const query = await post(node, '/api/v1/query', { jsonrpc: '2.0', id: 1, method: 'getExchangeConfig' })
    expect(query.status).toBe(200)
    // History reads say the index is not running.
    expect((await fetch(`${node.url}/api/v1/blocks`)).status).toBe(503)
  }, 120_000)

  test('another process holds the history database write lock: INDEXER_LAGGING past the thresholds, ok again once it lets go', async () => {
    const node = await startNode({ extraArgs: ['--health-indexer-lag-blocks', '20', '--health-indexer-lag-ms', '1000'] })
    running.push(node)
    dirs.push(node.dataDir)
    await until(
      'ok',
      () => probe(node),
      (p) => p.status === 200,
      60_000,
    )
    // An operator's tool with a write transaction open: the indexer's batches fail with SQLITE_BUSY.
    const db = new Database(join(node.dataDir, 'history.sqlite'))
    db.exec('BEGIN IMMEDIATE')
    try {
      const lagging = await until(
        'INDEXER_LAGGING',
        () => probe(node),
        (p) => codes(p).includes('INDEXER_LAGGING'),
        90_000,
      )
      expect(lagging.status).toBe(503)
      expect(lagging.body.status).toBe('degraded')
      expect(lagging.body.reasons.find((r) => r.code === 'INDEXER_LAGGING')!.message).toMatch(
        /the history index is \d+ blocks behind the chain tip/,
      )
      const live = await probe(node, '/api/v1/health/live')
      expect(live.status).toBe(200)
    } finally {
      db.exec('ROLLBACK')
      db.close()
    }
    const ok = await until(
      'ok again',
      () => probe(node),
      (p) => p.status === 200,
      90_000,
    )
    expect(ok.body).toMatchObject({ status: 'ok', reasons: [] })
  }, 240_000)
})

/** Whether this process may mount a tmpfs (root, with the privilege to mount): the full-disk test needs one. */
function canMountTmpfs(): boolean {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false
  const dir = mkdtempSync(join(tmpdir(), 'perpd-mount-probe-'))
  try {
    if (Bun.spawnSync(['mount', '-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', dir], { stderr: 'ignore' }).exitCode !== 0) return false
    Bun.spawnSync(['umount', dir])
    return true
  } catch {
    return false
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

describe('halted', () => {
  test('a damaged block store: a stored block does not replay, halted REPLAY_FAILED on both probes, exit 65', async () => {
    const dir = fastTempDir()
    dirs.push(dir)
    buildStoredChain(dir, { blocks: 200, orderEvery: 50 })
    const db = new Database(join(dir, 'chain.sqlite'))
    db.run(`UPDATE blocks SET state_root = '0x${'ab'.repeat(32)}' WHERE height = 150`)
    db.close()
    const node = await startNode({ dataDir: dir, extraArgs: ['--halt-exit-delay-ms', '5000'] })
    running.push(node)
    const health = await probe(node)
    expect(health.status).toBe(503)
    // The height shown is the block that did not replay (its root was found different).
    expect(health.body).toMatchObject({ status: 'halted', store_dirty: false, height: 150 })
    expect(health.body.reasons.map((r) => r.code)).toEqual(['REPLAY_FAILED'])
    expect(health.body.reasons[0]!.message).toContain('the stored chain does not replay: replay of block 150 reached state_root')
    expect((await probe(node, '/api/v1/health/live')).status).toBe(503)
    expect(await node.exited).toBe(65)
    running.splice(running.indexOf(node), 1)
  }, 120_000)

  test.skipIf(!canMountTmpfs())(
    'the file system fills up: the block write fails, 503 halted with store_dirty on both probes, exit 70, a restart replays',
    async () => {
      const mnt = mkdtempSync(join(tmpdir(), 'perpd-full-'))
      expect(Bun.spawnSync(['mount', '-t', 'tmpfs', '-o', 'size=16m', 'tmpfs', mnt]).exitCode).toBe(0)
      mounts.push(mnt)
      const dataDir = join(mnt, 'data')
      const node = await startNode({ dataDir, extraArgs: ['--halt-exit-delay-ms', '5000'] })
      running.push(node)
      await until(
        'a few blocks',
        () => probe(node),
        (p) => p.status === 200 && p.body.height >= 3,
        60_000,
      )

      // Fill the file system: the next block's write to the block store's log finds no space.
      const fd = openSync(join(mnt, 'filler'), 'w')
      try {
        for (const size of [1 << 20, 64 << 10, 4 << 10, 512]) {
          const chunk = Buffer.alloc(size, 1)
          try {
            for (;;) writeSync(fd, chunk)
          } catch (err) {
            expect((err as NodeJS.ErrnoException).code).toBe('ENOSPC')
          }
        }
      } finally {
        closeSync(fd)
      }

      const halted = await until(
        'halted',
        () => probe(node),
        (p) => p.body.status === 'halted',
        30_000,
      )
      expect(halted.status).toBe(503)
      expect(halted.body.store_dirty).toBe(true)
      const cause = halted.body.reasons.at(-1)!
      expect(cause.code).toBe('STORE_WRITE_FAILED')
      expect(cause.message).toMatch(
        /^block (\d+) was applied but not stored \(database or disk is full\); the state is at height \1, the block store at \d+$/,
      )
      const storedTip = Number(/the block store at (\d+)/.exec(cause.message)![1])
      expect(storedTip).toBe(halted.body.height - 1)
      const live = await probe(node, '/api/v1/health/live')
      expect(live.status).toBe(503)
      expect(live.body.status).toBe('halted')
      const query = await post(node, '/api/v1/query', { jsonrpc: '2.0', id: 3, method: 'getHealth' })
      expect(query.status).toBe(503)
      expect(query.json).toMatchObject({ id: 3, error: { code: -32000, data: { reason: 'HALTED' } } })
      // No more blocks.
      await Bun.sleep(300)
      expect((await probe(node)).body.height).toBe(halted.body.height)

      // It exits by itself, with the code of "halted: the state may be ahead of the store".
      expect(await node.exited).toBe(70)
      expect(node.output()).toContain('the process exits with 70')
      running.splice(running.indexOf(node), 1)

      // With space again, a restart replays what the store holds and goes on from there.
      rmSync(join(mnt, 'filler'))
      const again = await startNode({ dataDir })
      running.push(again)
      const ok = await until(
        'ok after the restart',
        () => probe(again),
        (p) => p.status === 200,
        60_000,
      )
      expect(ok.body.store_dirty).toBe(false)
      expect(ok.body.height).toBeGreaterThanOrEqual(storedTip)
      expect(again.output()).toMatch(
        new RegExp(`replayed ${storedTip} blocks \\(1 to ${storedTip}\\)|restored the state at height ${storedTip} `),
      )
    },
    240_000,
  )
})

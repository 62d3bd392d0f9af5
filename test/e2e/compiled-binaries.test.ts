// The standalone executables of compile.sh, run as an operator would: both are built into a
// temporary directory (OUT_DIR), then only the two files are copied into an empty directory (no
// node_modules, no source) where every command runs. Covers perpd version/keys new/init/start/
// status/replay --verify (good store, tampered copies) and perpd-admin --version/serve (with its
// web console), both serving /metrics and their OpenAPI documents, each a real process stopped by its own PID; the node's worker threads (history
// index, /action admission) are entrypoints of the binary, so the index reaching the tip and an
// accepted action check them too.
import { Database } from 'bun:sqlite'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { grantRole } from '../../src/client/actions.ts'
import { PerpdClient } from '../../src/client/perpd-client.ts'
import { MEMORY_ENV } from '../../src/node/memory-settings.ts'
import { childEnv, type ListeningProcess, PROJECT_ROOT, spawnListeningCommand } from '../support/child-process.ts'
import { removeDir } from '../support/node-process.ts'
import { parsePrometheusText, sampleValue } from '../support/prometheus-text.ts'

const VERSION = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }).version
/** How long compile.sh may take (about 10 s for both binaries on 2 cores). */
const COMPILE_TIMEOUT_MS = 120_000
/** How long a one-shot command (version, init, status, replay) may take. */
const COMMAND_TIMEOUT_MS = 30_000
/** How long a server may take to print its address. */

const dirs: string[] = []
const tmp = (prefix: string) => {
  const d = mkdtempSync(join(tmpdir(), prefix))
  dirs.push(d)
  return d
}

/** The empty directory the binaries are copied into and run from. */
let runDir = ''
/** Servers started here, stopped in afterAll if a test failed before stopping them. */
const servers: ListeningProcess[] = []

interface Result {
  code: number
  stdout: string
  stderr: string
}

/** Runs `./BIN ...args` in runDir; SIGKILL (and a failing result) after COMMAND_TIMEOUT_MS. */
async function run(bin: 'perpd' | 'perpd-admin', args: string[]): Promise<Result> {
  const proc = Bun.spawn([join(runDir, bin), ...args], { cwd: runDir, stdout: 'pipe', stderr: 'pipe', env: childEnv() })
  const timer = setTimeout(() => proc.kill('SIGKILL'), COMMAND_TIMEOUT_MS)
  try {
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
    return { code, stdout, stderr }
  } finally {
    clearTimeout(timer)
  }
}

/** Starts `./BIN ...args` in runDir and resolves once it logs `listening on http://127.0.0.1:PORT`; afterAll stops it. */
async function serve(bin: 'perpd' | 'perpd-admin', args: string[]): Promise<ListeningProcess> {
  const server = await spawnListeningCommand(bin, [join(runDir, bin), ...args], runDir)
  servers.push(server)
  return server
}

/** Retries `check` until it returns without throwing, at most `timeoutMs`; rethrows its last error. */
async function within<T>(timeoutMs: number, check: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      return await check()
    } catch (e) {
      if (Date.now() >= deadline) throw e
      await Bun.sleep(100)
    }
  }
}

beforeAll(async () => {
  const out = tmp('perpd-compile-')
  const proc = Bun.spawn(['bash', join(PROJECT_ROOT, 'compile.sh')], {
    cwd: PROJECT_ROOT,
    stdout: 'pipe',
    stderr: 'pipe',
    env: childEnv({ OUT_DIR: out }),
  })
  const timer = setTimeout(() => proc.kill('SIGKILL'), COMPILE_TIMEOUT_MS)
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  clearTimeout(timer)
  if (code !== 0) throw new Error(`compile.sh exited with ${code}: ${stdout}\n${stderr}`)
  runDir = tmp('perpd-bin-')
  for (const bin of ['perpd', 'perpd-admin']) copyFileSync(join(out, bin), join(runDir, bin))
  // Compiling is done: the build directory (and its source maps) goes, so nothing it made is reachable.
  removeDir(out)
}, COMPILE_TIMEOUT_MS + 10_000)

afterAll(async () => {
  for (const s of servers) await s.stop().catch(() => 0)
  for (const d of dirs) removeDir(d)
})

describe('compiled perpd and perpd-admin, alone in an empty directory', () => {
  let adminKey = ''
  let node: ListeningProcess | undefined
  /** The height that holds the admin's accepted action. */
  let actionHeight = 0

  test('the run directory holds only the two binaries', () => {
    expect(readdirSync(runDir).sort()).toEqual(['perpd', 'perpd-admin'])
  })

  test('perpd version and perpd-admin --version print the package version', async () => {
    const v = await run('perpd', ['version'])
    expect(v.code).toBe(0)
    expect(v.stdout).toMatch(new RegExp(`^perpd ${VERSION.replaceAll('.', '\\.')}\ncode fingerprint bin:[0-9a-f]{64}\n$`))
    const a = await run('perpd-admin', ['--version'])
    expect(a.code).toBe(0)
    expect(a.stdout.trim()).toBe(`perpd-admin ${VERSION}`)
  }, 60_000)

  test('keys new and init write a genesis whose Admin is the new key', async () => {
    const k = await run('perpd', ['keys', 'new', '--json'])
    expect(k.code).toBe(0)
    const key = JSON.parse(k.stdout) as { address: string; private_key: string }
    adminKey = key.private_key
    const r = await run('perpd', ['init', '--network', 'testnet', '--admin', key.address, '--out', 'genesis.json'])
    expect(r.code).toBe(0)
    const g = JSON.parse(readFileSync(join(runDir, 'genesis.json'), 'utf8'))
    expect(g.network).toBe('testnet')
    expect(g.accounts[0]).toEqual({ address: key.address, balance: '0', roles: ['Admin', 'Trader'] })
    expect(g.markets.length).toBeGreaterThan(0)
  }, 60_000)

  test('start serves health, reads, the history index, an admin action, metrics and the OpenAPI document', async () => {
    node = await serve('perpd', [
      'start',
      '--genesis',
      'genesis.json',
      '--data-dir',
      'data',
      '--port',
      '0',
      '--block-time-ms',
      '50',
      // One admission Worker even on one core, and every body sent to it (not admitted on the block
      // thread while it is idle), so the accepted action went through that entrypoint.
      '--admission-threads',
      '1',
      '--admission-inline',
      '0',
    ])
    const url = node.url
    const out = () => node!.output().slice(-2000)
    // The binary started itself again with the runtime's memory settings (src/node/memory-settings.ts).
    const environ = readFileSync(`/proc/${node.pid}/environ`, 'latin1').split('\0')
    for (const [name, value] of Object.entries(MEMORY_ENV)) expect(environ).toContain(`${name}=${value}`)
    await within(30_000, async () => {
      const res = await fetch(`${url}/api/v1/health`)
      const body = (await res.json()) as { status: string; height: number }
      if (res.status !== 200 || body.height < 1) throw new Error(`health ${res.status} ${JSON.stringify(body)}; output ${out()}`)
    })

    const client = new PerpdClient({ url, privateKey: adminKey })
    const markets = await client.query('getMarkets')
    expect(Array.isArray(markets.data)).toBe(true)
    expect((markets.data as unknown[]).length).toBeGreaterThan(0)

    // The Admin grants a role: signed with the genesis Admin's key, accepted into a block.
    const quoter = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
    const reply = await client.send(grantRole({ account: quoter, role: 'Quoter' }))
    if (reply.status !== 'accepted') throw new Error(`not accepted: ${JSON.stringify(reply)}; output ${out()}`)
    actionHeight = reply.height
    const acct = await within(10_000, async () => {
      const a = await client.query('getAccount', { address: quoter })
      if (!a.data.roles.includes('Quoter')) throw new Error(`roles ${JSON.stringify(a.data.roles)}`)
      return a.data
    })
    expect(acct.roles).toContain('Quoter')

    // The history index Worker ingests through the action's block and keeps up with the tip.
    await within(30_000, async () => {
      const s = (await (await fetch(`${url}/api/v1/status`)).json()) as {
        watermark: number | null
        node_tip: number
        behind: number
        envelope_total: number
      }
      if (s.watermark === null || s.watermark < actionHeight || s.behind > 5 || s.envelope_total < 1)
        throw new Error(`status ${JSON.stringify(s)}; output ${out()}`)
    })

    // The explorer's page and its bundle are embedded in the binary (src/api/routes/explorer-routes.ts).
    const explorer = await fetch(`${url}/`)
    expect(explorer.status).toBe(200)
    const html = await explorer.text()
    expect(html).toContain('<title>perpd explorer</title>')
    const script = html.match(/<script type="module"[^>]* src="(\/[^"]+\.js)"/)?.[1]
    if (script === undefined) throw new Error(`no script in the explorer page: ${html}`)
    const bundle = await fetch(`${url}${script}`)
    expect(bundle.status).toBe(200)
    expect(bundle.headers.get('content-type')).toContain('javascript')
    expect(await bundle.text()).toContain('lightweight-charts')

    const metrics = await fetch(`${url}/metrics`)
    expect(metrics.status).toBe(200)
    const families = parsePrometheusText(await metrics.text())
    expect(families.get('perpd_block_production_seconds')?.type).toBe('histogram')
    expect(sampleValue(families, 'perpd_block_height')).toBeGreaterThanOrEqual(actionHeight)

    // The OpenAPI document, built in the binary from the routes' declarations.
    const openapi = await fetch(`${url}/api/v1/openapi.json`)
    expect(openapi.status).toBe(200)
    const doc = (await openapi.json()) as { openapi: string; info: { title: string }; paths: Record<string, unknown> }
    expect([doc.openapi, doc.info.title]).toEqual(['3.1.0', 'perpd node'])
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/v1/health', '/api/v1/query', '/api/v1/fills', '/api/v1/market/orderbook/{symbol}', '/api/v1/candles']),
    )
  }, 90_000)

  test('status reports a healthy node', async () => {
    const r = await run('perpd', ['status', '--url', node!.url])
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/health +ok/)
    expect(r.stdout).toMatch(/history +indexed through \d+/)
  }, 60_000)

  test('perpd-admin serves health, its console, metrics and its OpenAPI document, with its KEK outside its data directory', async () => {
    const secrets = tmp('perpd-kek-')
    const kekFile = join(secrets, 'admin.kek')
    const adminDir = join(runDir, 'admin-data')
    const admin = await serve('perpd-admin', ['--node-url', node!.url, '--data-dir', adminDir, '--kek-file', kekFile, '--port', '0'])
    try {
      const res = await within(10_000, () => fetch(`${admin.url}/api/health`))
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual({ ok: true, version: VERSION })
      expect(existsSync(kekFile)).toBe(true)
      expect(existsSync(join(adminDir, 'admin.sqlite'))).toBe(true)
      expect(existsSync(join(adminDir, 'admin.pid'))).toBe(true)

      // The admin console's page and its bundle are embedded in the binary (src/admin/http/routes-console.ts).
      const consolePage = await fetch(`${admin.url}/`)
      expect(consolePage.status).toBe(200)
      const html = await consolePage.text()
      expect(html).toContain('<title>perpd-admin console</title>')
      const script = html.match(/<script type="module"[^>]* src="(\/[^"]+\.js)"/)?.[1]
      if (script === undefined) throw new Error(`no script in the console page: ${html}`)
      const bundle = await fetch(`${admin.url}${script}`)
      expect(bundle.status).toBe(200)
      expect(bundle.headers.get('content-type')).toContain('javascript')
      expect(await bundle.text()).toContain('/api/auth/challenge')

      const metrics = await fetch(`${admin.url}/metrics`)
      expect(metrics.status).toBe(200)
      const families = parsePrometheusText(await metrics.text())
      expect(families.get('perpd_admin_runner_state')?.type).toBe('gauge')
      expect(sampleValue(families, 'perpd_admin_http_requests_total', { route_family: 'health', status: '200' })).toBeGreaterThanOrEqual(1)

      const openapi = await fetch(`${admin.url}/api/openapi.json`)
      expect(openapi.status).toBe(200)
      const doc = (await openapi.json()) as { openapi: string; info: { title: string }; paths: Record<string, unknown> }
      expect([doc.openapi, doc.info.title]).toEqual(['3.1.0', 'perpd-admin'])
      expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/health', '/api/auth/login', '/api/keys', '/api/openapi.json']))
    } finally {
      expect(await admin.stop()).toBe(0)
    }
    expect(existsSync(join(adminDir, 'admin.pid'))).toBe(false)
  }, 60_000)

  test('replay --verify passes on the stopped node store and names the height of tampered copies', async () => {
    expect(await node!.stop()).toBe(0)
    const good = await run('perpd', ['replay', '--verify', '--data-dir', 'data', '--genesis', 'genesis.json'])
    expect(good.stderr + good.stdout).not.toContain('mismatch')
    expect(good.code).toBe(0)
    expect(good.stdout).toMatch(/verified \d+ blocks of network testnet/)

    // A stored state root altered at height 3.
    mkdirSync(join(runDir, 'tampered'))
    const rootCopy = join(runDir, 'tampered', 'root')
    cpSync(join(runDir, 'data'), rootCopy, { recursive: true })
    const db = new Database(join(rootCopy, 'chain.sqlite'))
    expect(db.run(`UPDATE blocks SET state_root = '0x${'ab'.repeat(32)}' WHERE height = 3`).changes).toBe(1)
    db.close()
    const badRoot = await run('perpd', ['replay', '--verify', '--data-dir', rootCopy, '--genesis', 'genesis.json'])
    expect(badRoot.code).toBe(65)
    expect(badRoot.stderr).toContain('mismatch at height 3')

    // The admin's stored action altered: another role granted than the one signed.
    const actionCopy = join(runDir, 'tampered', 'action')
    cpSync(join(runDir, 'data'), actionCopy, { recursive: true })
    const db2 = new Database(join(actionCopy, 'chain.sqlite'))
    const changed = db2.run(
      `UPDATE envelopes SET action = replace(action, '"Quoter"', '"Liquidator"') WHERE height = ${actionHeight} AND action_kind = 'GrantRole'`,
    )
    expect(changed.changes).toBe(1)
    db2.close()
    const badAction = await run('perpd', ['replay', '--verify', '--data-dir', actionCopy, '--genesis', 'genesis.json'])
    expect(badAction.code).toBe(65)
    expect(badAction.stderr).toContain(`mismatch at height ${actionHeight}`)
  }, 90_000)
})

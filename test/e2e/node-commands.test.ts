// The subcommands of perpd, each run as a real process (`bun src/main.ts WORD ...`): version, keys
// new, init (a genesis the node starts from; never overwritten), status against a running node, and
// replay --verify on a good block store (exit 0) and on tampered copies (exit 65 naming the height).
import { Database } from 'bun:sqlite'
import { afterAll, describe, expect, test } from 'bun:test'
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { placeOrder } from '../../src/client/actions.ts'
import { PerpdClient } from '../../src/client/perpd-client.ts'
import { eventually } from '../support/admin-process.ts'
import { childEnv, PROJECT_ROOT, spawnListening } from '../support/child-process.ts'
import { DEV_KEYS, type NodeProcess, removeDir, startNode } from '../support/node-process.ts'

const dirs: string[] = []
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'perpd-cmd-'))
  dirs.push(d)
  return d
}
let node: NodeProcess | undefined

afterAll(async () => {
  if (node !== undefined) await node.stop().catch(() => 0)
  for (const d of dirs) removeDir(d)
})

async function perpd(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const proc = Bun.spawn([process.execPath, join(PROJECT_ROOT, 'src/main.ts'), ...args], {
    cwd: PROJECT_ROOT,
    stdout: 'pipe',
    stderr: 'pipe',
    env: childEnv(),
  })
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  return { code, stdout, stderr }
}

describe('perpd subcommands', () => {
  test('version prints the version and the code fingerprint', async () => {
    const r = await perpd(['version'])
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/^perpd \d+\.\d+\.\d+\ncode fingerprint src:[0-9a-f]{64}\n$/)
  }, 60_000)

  test('keys new prints an address and the private key that controls it', async () => {
    const r = await perpd(['keys', 'new', '--json'])
    expect(r.code).toBe(0)
    const k = JSON.parse(r.stdout) as { address: string; private_key: Hex }
    expect(privateKeyToAccount(k.private_key).address.toLowerCase()).toBe(k.address)
    const human = await perpd(['keys', 'new'])
    expect(human.stdout).toMatch(/^address +0x[0-9a-f]{40}\nprivate key +0x[0-9a-f]{64}\n/)
    expect((await perpd(['keys', 'old'])).code).toBe(2)
  }, 60_000)

  test('init writes a genesis the node starts from, and never overwrites it', async () => {
    const dir = tmp()
    const out = join(dir, 'genesis.json')
    const admin = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
    const r = await perpd(['init', '--network', 'opsnet', '--admin', admin, '--out', out])
    expect(r.code).toBe(0)
    const g = JSON.parse(readFileSync(out, 'utf8'))
    expect(g.network).toBe('opsnet')
    expect(g.accounts[0]).toEqual({ address: admin, balance: '0', roles: ['Admin', 'Trader'] })
    expect(g.markets.length).toBeGreaterThan(0)
    writeFileSync(out, `${JSON.stringify({ ...g, max_tx_per_block: 500 }, null, 2)}\n`)
    const again = await perpd(['init', '--network', 'opsnet', '--admin', admin, '--out', out])
    expect(again.code).toBe(1)
    expect(again.stderr).toContain('never overwrites')
    expect(JSON.parse(readFileSync(out, 'utf8')).max_tx_per_block).toBe(500)
    expect((await perpd(['init', '--network', 'x', '--admin', 'nope', '--out', join(dir, 'other.json')])).code).toBe(2)
    expect(existsSync(join(dir, 'other.json'))).toBe(false)
    // A network name over the schema's 32 characters: refused by the schema --genesis uses.
    const bad = await perpd(['init', '--network', 'n'.repeat(40), '--admin', admin, '--out', join(dir, 'bad.json')])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('network')
    const started = await spawnListening('node', 'src/main.ts', [
      '--genesis',
      out,
      '--data-dir',
      join(dir, 'data'),
      '--port',
      '0',
      '--block-time-ms',
      '50',
    ])
    try {
      // Live and at the genesis written (ready may say degraded while XAU-USD, Created, has no quoter).
      await eventually(async () => {
        const body = (await (await fetch(`${started.url}/api/v1/health/live`)).json()) as { status: string; height: number }
        if (!(body.height > 0) || !['ok', 'degraded'].includes(body.status))
          throw new Error(`health ${JSON.stringify(body)}; output ${started.output().slice(-2000)}`)
        return true
      }, 60_000)
    } finally {
      expect(await started.stop()).toBe(0)
    }
  }, 120_000)

  test('status describes a running node', async () => {
    node = await startNode()
    const r = await perpd(['status', '--url', node.url])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain(`node     ${node.url}`)
    expect(r.stdout).toMatch(/health +ok/)
    expect(r.stdout).toMatch(/height +\d+/)
    const j = await perpd(['status', '--url', node.url, '--json'])
    expect(JSON.parse(j.stdout).health.status).toBe('ok')
    expect((await perpd(['status', '--url', 'http://127.0.0.1:1'])).code).toBe(1)
  }, 120_000)

  test('replay --verify passes on a good store and names the height of a tampered one', async () => {
    const trader = new PerpdClient({ url: node!.url, privateKey: DEV_KEYS[1] as Hex })
    const placed = await trader.send(placeOrder({ market_id: 1, side: 'Bid', price: '30000', qty: '0.01', tif: 'Gtc', reduce_only: false }))
    if (placed.status !== 'accepted') throw new Error(`not accepted: ${JSON.stringify(placed)}`)
    await eventually(async () => {
      const h = (await (await fetch(`${node!.url}/api/v1/health`)).json()) as { height: number }
      if (h.height <= placed.height + 5) throw new Error(`health ${JSON.stringify(h)}; output ${node!.output().slice(-2000)}`)
      return true
    }, 60_000)
    expect(await node!.stop()).toBe(0)
    const good = await perpd(['replay', '--verify', '--data-dir', node!.dataDir, '--dev'])
    expect(good.code).toBe(0)
    expect(good.stdout).toMatch(/verified \d+ blocks of network dev/)

    // A stored state root altered at height 3.
    const rootCopy = tmp()
    cpSync(node!.dataDir, rootCopy, { recursive: true })
    const db = new Database(join(rootCopy, 'chain.sqlite'))
    db.run(`UPDATE blocks SET state_root = '0x${'ab'.repeat(32)}' WHERE height = 3`)
    db.close()
    const badRoot = await perpd(['replay', '--verify', '--data-dir', rootCopy])
    expect(badRoot.code).toBe(65)
    expect(badRoot.stderr).toContain('mismatch at height 3')
    expect(badRoot.stderr).toContain(`expected (stored) 0x${'ab'.repeat(32)}`)

    // The order's price altered in its stored action.
    const actionCopy = tmp()
    cpSync(node!.dataDir, actionCopy, { recursive: true })
    const db2 = new Database(join(actionCopy, 'chain.sqlite'))
    const changed = db2.run(
      `UPDATE envelopes SET action = replace(action, '"30000"', '"30001"') WHERE height = ${placed.height} AND envelope_idx = ${placed.envelope_idx}`,
    )
    expect(changed.changes).toBe(1)
    db2.close()
    const badAction = await perpd(['replay', '--verify', '--data-dir', actionCopy])
    expect(badAction.code).toBe(65)
    expect(badAction.stderr).toContain(`mismatch at height ${placed.height}`)

    // Another genesis than the stored one.
    const g = tmp()
    const other = join(g, 'genesis.json')
    await perpd(['init', '--network', 'other', '--admin', '0x70997970c51812dc3a010c7d01b50e0d17dc79c8', '--out', other])
    expect((await perpd(['replay', '--verify', '--data-dir', node!.dataDir, '--genesis', other])).code).toBe(65)
  }, 180_000)
})

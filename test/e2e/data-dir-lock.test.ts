// One running process per data directory (src/lib/data-dir-lock.ts): a second perpd on a directory
// a running node holds is refused with a message and exit 1, before it opens anything there, and
// the running node goes on; the lock goes with its holder, SIGKILL included. The same for
// perpd-admin, which also stops cleanly when told to while it starts.
import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runScript, spawnListening } from '../support/child-process.ts'

const dir = mkdtempSync(join(tmpdir(), 'perpd-data-dir-lock-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const args = ['--dev', '--no-dev-quoter', '--data-dir', dir, '--host', '127.0.0.1', '--port', '0', '--block-time-ms', '50']

async function height(url: string): Promise<number> {
  const res = await fetch(`${url}/api/v1/query`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getChainInfo', params: {} }),
  })
  const body = (await res.json()) as { result: { height: number } }
  return body.result.height
}

test('a second node on a held data directory is refused; the first goes on; the lock dies with its holder', async () => {
  const first = await spawnListening('first node', 'src/main.ts', args)
  let firstStopped = false
  try {
    await Bun.sleep(300)
    const second = await runScript('src/main.ts', args)
    expect(second.code).toBe(1)
    expect(second.stderr).toContain(`the data directory ${dir} is in use by another running perpd`)
    expect(second.stdout).not.toContain('listening on')
    // The first node still produces blocks into its store.
    const before = await height(first.url)
    await Bun.sleep(300)
    expect(await height(first.url)).toBeGreaterThan(before)
    await first.stop('SIGKILL')
    firstStopped = true
    // The operating system dropped the lock with its holder: a new node starts on the directory.
    const third = await spawnListening('third node', 'src/main.ts', args)
    try {
      await Bun.sleep(300)
      expect(await height(third.url)).toBeGreaterThan(0)
    } finally {
      expect(await third.stop()).toBe(0)
    }
  } finally {
    if (!firstStopped) await first.stop()
  }
}, 60_000)

test('a second admin service on a held data directory is refused; the first goes on', async () => {
  const adminDir = join(dir, 'admin')
  const adminArgs = ['--data-dir', adminDir, '--host', '127.0.0.1', '--port', '0', '--node-url', 'http://127.0.0.1:9']
  const first = await spawnListening('first admin', 'src/admin.ts', adminArgs)
  try {
    const second = await runScript('src/admin.ts', adminArgs)
    expect(second.code).toBe(1)
    expect(second.stderr).toContain(`the data directory ${adminDir} is in use by another running perpd-admin`)
    expect(second.stdout).not.toContain('listening on')
    // The first still answers.
    expect(await (await fetch(`${first.url}/api/health`)).json()).toMatchObject({ ok: true })
  } finally {
    await first.stop()
  }
  // Stopped, it gave the lock up: another starts and answers.
  const third = await spawnListening('third admin', 'src/admin.ts', adminArgs)
  try {
    expect(await (await fetch(`${third.url}/api/health`)).json()).toMatchObject({ ok: true })
  } finally {
    await third.stop()
  }
}, 60_000)

test('an admin service stopped the moment it prints its address still stops cleanly (exit 0) and gives its lock up', async () => {
  // It prints its address before its runners start; a SIGTERM then used to end it mid-start (143).
  const adminDir = join(dir, 'admin-stopped-at-start')
  const adminArgs = ['--data-dir', adminDir, '--host', '127.0.0.1', '--port', '0', '--node-url', 'http://127.0.0.1:9']
  for (let i = 0; i < 4; i++) {
    const admin = await spawnListening(`admin ${i}`, 'src/admin.ts', adminArgs)
    expect(await admin.stop()).toBe(0)
  }
}, 60_000)

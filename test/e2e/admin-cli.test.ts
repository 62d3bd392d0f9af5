// The operator's command line (perpd-admin login / keys / bind / services / logout) against a real
// admin service and node: it signs the login and encrypts uploads itself, and keeps its session in
// a 0600 file under $XDG_CONFIG_HOME/perpd-admin.
import { Database } from 'bun:sqlite'
import { afterAll, describe, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { api, removeAdminFiles, runAdmin, startAdmin } from '../support/admin-process.ts'
import { DEV_KEYS, removeDir, startNode } from '../support/node-process.ts'

const node = await startNode()
const admin = await startAdmin({ nodeUrl: node.url })
const home = mkdtempSync(join(tmpdir(), 'perpd-admin-cli-'))
const env = { XDG_CONFIG_HOME: join(home, 'config') }
const sessionPath = join(home, 'config', 'perpd-admin', 'session.json')
const keyFile = (name: string, key: string) => {
  const f = join(home, name)
  writeFileSync(f, `${key}\n`, { mode: 0o600 })
  return f
}
const adminKeyFile = keyFile('admin.key', DEV_KEYS[0])
const oracleKeyFile = keyFile('oracle.key', DEV_KEYS[3].slice(2))
const cli = (...args: string[]) => runAdmin(args, env)

afterAll(async () => {
  await admin.stop()
  await node.stop()
  removeAdminFiles(admin)
  removeDir(node.dataDir)
  removeDir(home)
})

describe('perpd-admin as a client', () => {
  let keyId = ''

  test('without a session a command says to log in', async () => {
    const r = await cli('keys', 'list', '--admin-url', admin.url)
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('HTTP 401')
    expect(r.stderr).toContain('perpd-admin login')
  })

  test('login signs the challenge and stores the session in a 0600 file', async () => {
    const r = await cli('login', '--key-file', adminKeyFile, '--admin-url', admin.url)
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(r.stdout).toContain(`logged in to ${admin.url} as ${privateKeyToAccount(DEV_KEYS[0] as Hex).address.toLowerCase()}`)
    expect(statSync(sessionPath).mode & 0o777).toBe(0o600)
    const stored = JSON.parse(readFileSync(sessionPath, 'utf8'))
    expect(stored.admin_url).toBe(admin.url)
    expect((await api(admin.url, '/api/auth/me', { token: stored.token })).status).toBe(200)
  })

  test('keys upload encrypts client-side; keys list shows the entry, never the key', async () => {
    const up = await cli('keys', 'upload', '--label', 'oracle-cli', '--key-file', oracleKeyFile)
    expect(up.code).toBe(0)
    const m = up.stdout.match(/uploaded key ([0-9a-f-]{36}) \((0x[0-9a-f]{40})\) "oracle-cli"/)
    expect(m).not.toBeNull()
    keyId = m![1]!
    expect(m![2]).toBe(privateKeyToAccount(DEV_KEYS[3] as Hex).address.toLowerCase())
    const list = await cli('keys', 'list')
    expect(list.code).toBe(0)
    expect(list.stdout).toContain(keyId)
    expect(list.stdout).toContain('oracle-cli')
    expect(list.stdout + up.stdout + admin.output()).not.toContain(DEV_KEYS[3].slice(2))
  })

  test('bind attaches the key to a service; a bound key cannot be deleted', async () => {
    const bind = await cli('bind', 'oracle', keyId)
    expect(bind.code).toBe(0)
    expect(bind.stdout).toContain(`oracle: bound to ${keyId}`)
    const services = await cli('services')
    expect(services.code).toBe(0)
    expect(services.stdout).toMatch(new RegExp(`^oracle\\s+key ${keyId}`, 'm'))
    const del = await cli('keys', 'delete', keyId)
    expect(del.code).toBe(1)
    expect(del.stderr).toContain('HTTP 409 KEY_BOUND')
    expect((await cli('bind', 'oracle', 'none')).code).toBe(0)
    expect((await cli('keys', 'delete', keyId)).stdout).toContain(`deleted key ${keyId}`)
  })

  test('--token and --admin-url override the stored session', async () => {
    const stored = JSON.parse(readFileSync(sessionPath, 'utf8'))
    const r = await runAdmin(['keys', 'list', '--admin-url', admin.url, '--token', stored.token], {
      XDG_CONFIG_HOME: join(home, 'elsewhere'),
    })
    expect(r.code).toBe(0)
    const bad = await runAdmin(['keys', 'list', '--admin-url', admin.url, '--token', 'ab'.repeat(32)], env)
    expect(bad.code).toBe(1)
  })

  test('a key without the Admin role cannot log in; bad usage exits 2', async () => {
    const r = await cli('login', '--key-file', keyFile('trader.key', DEV_KEYS[1]), '--admin-url', admin.url)
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('HTTP 403 NOT_ADMIN')
    expect((await cli('bind', 'nope', 'x')).code).toBe(2)
    expect((await cli('keys', 'upload', '--label', 'x')).code).toBe(2)
    expect((await cli('login', '--key-file', keyFile('junk.key', 'not a key'))).code).toBe(2)
  })

  test('keys rename changes a label; keys list escapes what could drive a terminal or split a log line', async () => {
    const up = await cli('keys', 'upload', '--label', 'plain', '--key-file', keyFile('inject.key', DEV_KEYS[6]))
    expect(up.code).toBe(0)
    const id = up.stdout.match(/uploaded key ([0-9a-f-]{36})/)![1]!
    // The service refuses such labels; one written by an earlier version, or straight into the
    // database, must still print harmlessly.
    const db = new Database(admin.dbFile)
    db.run('UPDATE keys SET label = ? WHERE id = ?', ['\u001b[2J\u001b[31mowned\nfake line\u202e', id])
    db.close()
    const list = await cli('keys', 'list')
    expect(list.code).toBe(0)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the test asserts that no raw control character (tab and newline aside) reaches the terminal
    expect(list.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\u202e]/)
    // Shown as escapes: JSON's for control characters, \u{…} for the rest.
    expect(list.stdout).toContain('"\\u001b[2J\\u001b[31mowned\\nfake line\\u{202e}"')
    expect(list.stdout.split('\n').filter((l) => l.includes(id))).toHaveLength(1)
    const bad = await cli('keys', 'rename', id, '--label', 'a\u001bb')
    expect(bad.code).toBe(1)
    expect(bad.stderr).toContain('HTTP 400 INVALID_REQUEST')
    const ok = await cli('keys', 'rename', id, '--label', 'renamed')
    expect(ok.code).toBe(0)
    expect(ok.stdout).toContain(`renamed key ${id} to "renamed"`)
    expect((await cli('keys', 'list')).stdout).toContain('"renamed"')
    expect((await cli('keys', 'delete', id)).code).toBe(0)
  }, 30_000)

  test('logout ends the session at the service, then removes the stored session', async () => {
    const stored = JSON.parse(readFileSync(sessionPath, 'utf8'))
    expect((await api(admin.url, '/api/auth/me', { token: stored.token })).status).toBe(200)
    const r = await cli('logout')
    expect(r.code).toBe(0)
    expect(r.stdout).toContain(`ended the session at ${admin.url}`)
    expect(existsSync(sessionPath)).toBe(false)
    expect((await api(admin.url, '/api/auth/me', { token: stored.token })).status).toBe(401)
    expect((await cli('logout')).stdout).toContain('no stored session')
  }, 30_000)

  test('logout --all ends every session of the address', async () => {
    expect((await cli('login', '--key-file', adminKeyFile, '--admin-url', admin.url)).code).toBe(0)
    const other = JSON.parse(readFileSync(sessionPath, 'utf8')).token as string
    expect((await cli('login', '--key-file', adminKeyFile, '--admin-url', admin.url)).code).toBe(0)
    const r = await cli('logout', '--all')
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/ended \d+ sessions/)
    expect((await api(admin.url, '/api/auth/me', { token: other })).status).toBe(401)
  }, 30_000)
})

// perpd-admin login end to end (docs/admin.md#login, docs/admin.md#sessions, docs/admin.md#errors;
// the signed bytes: docs/protocol.md#admin-login-signature): a real node and a real admin service
// as child processes; wallet signatures made by viem, never by the project's signer.
import { describe, expect, test } from 'bun:test'
import type { Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import packageJson from '../../package.json' with { type: 'json' }
import { grantRole, revokeRole } from '../../src/client/actions.ts'
import { PerpdClient } from '../../src/client/perpd-client.ts'
import {
  api,
  login,
  loginToken,
  removeAdminFiles,
  signedChallenge,
  startAdmin,
  startAdminWithNodeForFile,
} from '../support/admin-process.ts'
import { CheckedRpcClient } from '../support/checked-rpc.ts'
import { DEV_KEYS } from '../support/node-process.ts'
import { rawRequest } from '../support/raw-http.ts'

const ADMIN_KEY = DEV_KEYS[0] as Hex
const TRADER_KEY = DEV_KEYS[1] as Hex
const STRANGER_KEY = '0x1b2c3d4e5f60718293a4b5c6d7e8f90112233445566778899aabbccddeeff001' as Hex

const { node, admin } = await startAdminWithNodeForFile()
const rpc = new CheckedRpcClient(node.url)
const offered = new Set((await rpc.query<{ actions: { name: string }[] }>('getActionsMeta')).data.actions.map((a) => a.name))
const A = admin.url

describe('health and challenge', () => {
  test('GET /api/health is {ok: true, version} with the package version', async () => {
    const r = await api(A, '/api/health')
    expect(r.status).toBe(200)
    expect(r.body).toEqual({ ok: true, version: packageJson.version })
  })

  test('a challenge is 16 random bytes as 32 hex characters, each with its own timestamp', async () => {
    const a = await api(A, '/api/auth/challenge')
    const b = await api(A, '/api/auth/challenge')
    expect(a.body.challenge).toMatch(/^[0-9a-f]{32}$/)
    expect(b.body.challenge).not.toBe(a.body.challenge)
    expect(Number.isSafeInteger(a.body.timestamp_ms)).toBe(true)
    expect(b.body.timestamp_ms).toBeGreaterThan(a.body.timestamp_ms)
    expect(Math.abs(a.body.timestamp_ms - Date.now())).toBeLessThan(60_000)
  })
})

describe('login', () => {
  test('the dev Admin logs in with a viem personal_sign over the 28 bytes', async () => {
    const before = Math.floor(Date.now() / 1000)
    const r = await login(A, ADMIN_KEY)
    expect(r.status).toBe(200)
    expect(r.body.token).toMatch(/^[0-9a-f]{64}$/)
    expect(r.body.expires_at_secs).toBeGreaterThanOrEqual(before + 24 * 3600 - 5)
    expect(r.body.expires_at_secs).toBeLessThanOrEqual(before + 24 * 3600 + 5)
    const me = await api(A, '/api/auth/me', { token: r.body.token })
    expect(me.status).toBe(200)
    expect(me.body).toEqual({ address: privateKeyToAccount(ADMIN_KEY).address.toLowerCase(), expires_at_secs: r.body.expires_at_secs })
  })

  test('the address matches case-insensitively', async () => {
    for (const form of [(a: string) => a.toLowerCase(), (a: string) => `0x${a.slice(2).toUpperCase()}`]) {
      const s = await signedChallenge(A, ADMIN_KEY)
      const r = await api(A, '/api/auth/login', {
        method: 'POST',
        body: { address: form(s.address), timestamp_ms: s.timestamp_ms, signature: s.signature },
      })
      expect(r.status).toBe(200)
    }
  })

  test('a bare token (no Bearer prefix) is accepted', async () => {
    const token = await loginToken(A, ADMIN_KEY)
    expect((await api(A, '/api/auth/me', { headers: { authorization: token } })).status).toBe(200)
    expect((await api(A, '/api/auth/me', { headers: { authorization: `bearer ${token}` } })).status).toBe(200)
  })

  test('a challenge is one-time: replaying a successful login is 401', async () => {
    const s = await signedChallenge(A, ADMIN_KEY)
    const body = { address: s.address, timestamp_ms: s.timestamp_ms, signature: s.signature }
    expect((await api(A, '/api/auth/login', { method: 'POST', body })).status).toBe(200)
    const again = await api(A, '/api/auth/login', { method: 'POST', body })
    expect(again.status).toBe(401)
    expect(again.body.reason).toBe('CHALLENGE_MISSING')
  })

  test('a failed login does not consume the challenge', async () => {
    const s = await signedChallenge(A, ADMIN_KEY)
    // Signed by another key but claiming the admin's address: 401, challenge kept.
    const other = await privateKeyToAccount(TRADER_KEY).signMessage({
      message: { raw: (await import('../support/admin-process.ts')).loginBytes(s.challenge, s.timestamp_ms) },
    })
    const wrong = await api(A, '/api/auth/login', {
      method: 'POST',
      body: { address: s.address, timestamp_ms: s.timestamp_ms, signature: other },
    })
    expect(wrong.status).toBe(401)
    expect(wrong.body.reason).toBe('SIGNATURE_MISMATCH')
    // The trader's own correct signature over the same challenge: 403 (not Admin), challenge kept.
    const trader = await api(A, '/api/auth/login', {
      method: 'POST',
      body: { address: privateKeyToAccount(TRADER_KEY).address, timestamp_ms: s.timestamp_ms, signature: other },
    })
    expect(trader.status).toBe(403)
    const ok = await api(A, '/api/auth/login', {
      method: 'POST',
      body: { address: s.address, timestamp_ms: s.timestamp_ms, signature: s.signature },
    })
    expect(ok.status).toBe(200)
  })
})

describe('login errors (docs/admin.md#errors)', () => {
  test('invalid JSON is 400', async () => {
    const r = await api(A, '/api/auth/login', { method: 'POST', body: '{nope' })
    expect(r.status).toBe(400)
    expect(r.body.reason).toBe('INVALID_JSON')
  })

  test('JSON of the wrong shape is 400', async () => {
    expect((await api(A, '/api/auth/login', { method: 'POST', body: {} })).status).toBe(400)
    expect((await api(A, '/api/auth/login', { method: 'POST', body: { address: 'nope', timestamp_ms: 1, signature: '0x' } })).status).toBe(
      400,
    )
  })

  test('no live challenge for the timestamp is 401', async () => {
    const r = await api(A, '/api/auth/login', {
      method: 'POST',
      body: { address: `0x${'11'.repeat(20)}`, timestamp_ms: 1, signature: `0x${'22'.repeat(65)}` },
    })
    expect(r.status).toBe(401)
    expect(r.body.reason).toBe('CHALLENGE_MISSING')
  })

  test("a timestamp that is not the challenge's is 401", async () => {
    const s = await signedChallenge(A, ADMIN_KEY)
    const r = await api(A, '/api/auth/login', {
      method: 'POST',
      body: { address: s.address, timestamp_ms: s.timestamp_ms + 100_000, signature: s.signature },
    })
    expect(r.status).toBe(401)
  })

  test('a malformed or wrong signature is 401', async () => {
    const s = await signedChallenge(A, ADMIN_KEY)
    // The last one flips v: a valid signature with the other recovery id recovers another key.
    const flipped = s.signature.slice(0, -2) + (s.signature.endsWith('1b') ? '1c' : '1b')
    for (const signature of ['0x1234', 'not hex', `0x${'22'.repeat(65)}`, flipped]) {
      const r = await api(A, '/api/auth/login', { method: 'POST', body: { address: s.address, timestamp_ms: s.timestamp_ms, signature } })
      expect(r.status).toBe(401)
    }
  })

  test('an address without the on-chain Admin role is 403', async () => {
    expect((await login(A, STRANGER_KEY)).status).toBe(403)
    const trader = await login(A, TRADER_KEY)
    expect(trader.status).toBe(403)
    expect(trader.body.reason).toBe('NOT_ADMIN')
  })

  test('failed logins are rate-limited per client IP and address (429 with Retry-After); other IPs are not locked out', async () => {
    const address = `0x${'ab'.repeat(20)}`
    const statuses: number[] = []
    for (let i = 0; i < 11; i++) {
      const r = await api(A, '/api/auth/login', { method: 'POST', body: { address, timestamp_ms: 1, signature: '0x00' } })
      statuses.push(r.status)
      if (r.status === 429) expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0)
    }
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true)
    expect(statuses[10]).toBe(429)
    // The same address from another client IP is not locked out by these failures.
    const elsewhere = await rawRequest(A, {
      method: 'POST',
      path: '/api/auth/login',
      headers: [['content-type', 'application/json']],
      body: JSON.stringify({ address, timestamp_ms: 1, signature: '0x00' }),
      localAddress: '127.0.0.2',
      timeoutMs: 5_000,
    })
    expect(elsewhere.status).toBe(401)
    // Other addresses are not affected.
    expect((await login(A, ADMIN_KEY)).status).toBe(200)
  })
})

describe('sessions', () => {
  test('me without a token, with an unknown token or a malformed header is 401', async () => {
    expect((await api(A, '/api/auth/me')).status).toBe(401)
    expect((await api(A, '/api/auth/me', { token: 'ab'.repeat(32) })).status).toBe(401)
    expect((await api(A, '/api/auth/me', { headers: { authorization: 'Bearer' } })).status).toBe(401)
    expect((await api(A, '/api/auth/me', { headers: { authorization: 'Bearer a b' } })).status).toBe(401)
  })

  test('every other admin route needs the token too', async () => {
    for (const [method, path] of [
      ['GET', '/api/keys'],
      ['POST', '/api/keys'],
      ['DELETE', '/api/keys/00000000-0000-4000-8000-000000000000'],
      ['GET', '/api/service-config'],
      ['PUT', '/api/service-config'],
      ['GET', '/api/audit'],
    ] as const) {
      const body =
        method === 'POST'
          ? { label: 'x', address: `0x${'11'.repeat(20)}`, ephemeral_public_key: '0x', iv: '0x', ciphertext: '0x' }
          : method === 'PUT'
            ? { service: 'oracle', key_id: null, enabled: false }
            : undefined
      expect({ path, status: (await api(A, path, { method, body })).status }).toEqual({ path, status: 401 })
    }
    // Only these answer without a token.
    expect((await api(A, '/api/keys/encryption-key')).status).toBe(200)
  })

  test('each login is audited', async () => {
    const token = await loginToken(A, ADMIN_KEY)
    const r = await api(A, '/api/audit?limit=5', { token })
    expect(r.status).toBe(200)
    expect(r.body.entries[0]).toMatchObject({ action: 'login', actor: privateKeyToAccount(ADMIN_KEY).address.toLowerCase() })
    expect(r.body.entries[0].detail.ip).toBe('127.0.0.1')
  })

  test.if(offered.has('GrantRole') && offered.has('RevokeRole'))('loss of the Admin role turns me into 403', async () => {
    const chainAdmin = new PerpdClient({ url: node.url, privateKey: ADMIN_KEY })
    const second = privateKeyToAccount(DEV_KEYS[2] as Hex).address.toLowerCase()
    expect((await chainAdmin.send(grantRole({ account: second, role: 'Admin' }))).status).toBe('accepted')
    const token = await loginToken(A, DEV_KEYS[2] as Hex)
    expect((await api(A, '/api/auth/me', { token })).status).toBe(200)
    expect((await api(A, '/api/keys', { token })).status).toBe(200)
    expect((await chainAdmin.send(revokeRole({ account: second, role: 'Admin' }))).status).toBe('accepted')
    const me = await api(A, '/api/auth/me', { token })
    expect(me.status).toBe(403)
    expect(me.body.reason).toBe('NOT_ADMIN')
    // The failed re-check also ends the trust other routes had in the earlier confirmation.
    expect((await api(A, '/api/keys', { token })).status).toBe(403)
    // A fresh login is refused as well.
    expect((await login(A, DEV_KEYS[2] as Hex)).status).toBe(403)
    // Both refusals of the session and the refused login are in the audit log.
    const admin = await loginToken(A, ADMIN_KEY)
    const entries = (await api(A, '/api/audit?limit=20', { token: admin })).body.entries as {
      action: string
      actor: string
      target: string | null
      detail: Record<string, unknown>
    }[]
    const mine = entries.filter((e) => e.actor === second)
    expect(mine.filter((e) => e.action === 'access.denied').map((e) => e.target)).toEqual(['GET /api/keys', 'GET /api/auth/me'])
    expect(mine.find((e) => e.action === 'access.denied')!.detail).toEqual({ ip: '127.0.0.1', reason: 'NOT_ADMIN' })
    expect(mine.find((e) => e.action === 'login.failed')!.detail).toEqual({ ip: '127.0.0.1', reason: 'NOT_ADMIN' })
  })
})

describe('logout (docs/admin.md#sessions)', () => {
  test('challenge and login replies are Cache-Control: no-store', async () => {
    const ch = await api(A, '/api/auth/challenge')
    expect(ch.headers.get('cache-control')).toBe('no-store')
    const ok = await login(A, ADMIN_KEY)
    expect(ok.headers.get('cache-control')).toBe('no-store')
    const failed = await api(A, '/api/auth/login', {
      method: 'POST',
      body: { address: `0x${'12'.repeat(20)}`, timestamp_ms: 1, signature: '0x00' },
    })
    expect(failed.headers.get('cache-control')).toBe('no-store')
    expect((await api(A, '/api/auth/me', { token: ok.body.token })).headers.get('cache-control')).toBe('no-store')
  }, 30_000)

  test("logout ends the caller's session only: its token is 401 afterwards", async () => {
    const token = await loginToken(A, ADMIN_KEY)
    const other = await loginToken(A, ADMIN_KEY)
    const r = await api(A, '/api/auth/logout', { method: 'POST', token })
    expect(r.status).toBe(200)
    expect(r.body).toEqual({ ok: true })
    for (const path of ['/api/auth/me', '/api/keys', '/api/audit']) expect((await api(A, path, { token })).status).toBe(401)
    expect((await api(A, '/api/auth/logout', { method: 'POST', token })).status).toBe(401)
    expect((await api(A, '/api/auth/me', { token: other })).status).toBe(200)
    expect((await api(A, '/api/auth/logout', { method: 'POST' })).status).toBe(401)
    const audit = (await api(A, '/api/audit?limit=3', { token: other })).body.entries
    expect(audit.some((e: { action: string }) => e.action === 'logout')).toBe(true)
  }, 30_000)

  test("logout-all ends every session of the caller's address", async () => {
    const tokens = [await loginToken(A, ADMIN_KEY), await loginToken(A, ADMIN_KEY), await loginToken(A, ADMIN_KEY)]
    const r = await api(A, '/api/auth/logout-all', { method: 'POST', token: tokens[1] })
    expect(r.status).toBe(200)
    expect(r.body.ok).toBe(true)
    expect(r.body.revoked).toBeGreaterThanOrEqual(3)
    for (const token of tokens) expect((await api(A, '/api/auth/me', { token })).status).toBe(401)
    const fresh = await loginToken(A, ADMIN_KEY)
    const audit = (await api(A, '/api/audit?limit=3', { token: fresh })).body.entries
    expect(audit[1]).toMatchObject({ action: 'logout.all', detail: { revoked: r.body.revoked } })
  }, 30_000)

  test('failed logins are audited with their reason', async () => {
    const address = `0x${'cd'.repeat(20)}`
    expect((await api(A, '/api/auth/login', { method: 'POST', body: { address, timestamp_ms: 1, signature: '0x00' } })).status).toBe(401)
    const token = await loginToken(A, ADMIN_KEY)
    const entries = (await api(A, '/api/audit?limit=5', { token })).body.entries
    expect(entries[1]).toMatchObject({ action: 'login.failed', actor: address, detail: { ip: '127.0.0.1', reason: 'CHALLENGE_MISSING' } })
  }, 30_000)
})

describe('behind a proxy (--trusted-proxy)', () => {
  test('X-Forwarded-For names the client only when the peer is a trusted proxy', async () => {
    const proxied = await startAdmin({ nodeUrl: node.url, args: ['--trusted-proxy', '127.0.0.1/32'] })
    try {
      const ipOfLogin = async (base: string, forwardedFor: string) => {
        const s = await signedChallenge(base, ADMIN_KEY)
        const r = await api(base, '/api/auth/login', {
          method: 'POST',
          headers: { 'x-forwarded-for': forwardedFor },
          body: { address: s.address, timestamp_ms: s.timestamp_ms, signature: s.signature },
        })
        const entries = (await api(base, '/api/audit?limit=1', { token: r.body.token })).body.entries
        return entries[0].detail.ip as string
      }
      // The rightmost address that is not a trusted proxy; a client's own claim further left is ignored.
      expect(await ipOfLogin(proxied.url, '198.51.100.9, 203.0.113.7')).toBe('203.0.113.7')
      expect(await ipOfLogin(proxied.url, '203.0.113.8, 127.0.0.1')).toBe('203.0.113.8')
      // Without --trusted-proxy the header is ignored.
      expect(await ipOfLogin(A, '203.0.113.7')).toBe('127.0.0.1')
      // The per-IP limits count the forwarded client: one client's 120 challenges do not stop another's.
      const challenge = (forwardedFor: string) => api(proxied.url, '/api/auth/challenge', { headers: { 'x-forwarded-for': forwardedFor } })
      const statuses: number[] = []
      for (let i = 0; i < 125; i++) statuses.push((await challenge('192.0.2.1')).status)
      expect(statuses.filter((x) => x === 429).length).toBeGreaterThan(0)
      expect((await challenge('192.0.2.2')).status).toBe(200)
    } finally {
      await proxied.stop()
      removeAdminFiles(proxied)
    }
  }, 60_000)
})

describe('chain RPC unavailable (503 CHAIN_UNAVAILABLE)', () => {
  test('login is 503 when the admin service cannot reach the chain', async () => {
    // A second admin service pointed at a port nothing listens on.
    const dead = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('') })
    const deadUrl = `http://127.0.0.1:${dead.port}`
    dead.stop(true)
    const lonely = await startAdmin({ nodeUrl: deadUrl })
    try {
      const r = await login(lonely.url, ADMIN_KEY)
      expect(r.status).toBe(503)
      expect(r.body.reason).toBe('CHAIN_UNAVAILABLE')
    } finally {
      await lonely.stop()
      removeAdminFiles(lonely)
    }
  })

  test('me is 503 once the node is gone (runs last: stops the node)', async () => {
    const token = await loginToken(A, ADMIN_KEY)
    await node.stop()
    const r = await api(A, '/api/auth/me', { token })
    expect(r.status).toBe(503)
    expect(r.body.reason).toBe('CHAIN_UNAVAILABLE')
  })
})

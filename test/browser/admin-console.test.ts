// The admin web console (docs/admin.md#console) in headless Chromium against a real admin service
// and a real dev node. A test wallet is injected as window.ethereum: it answers eth_requestAccounts
// with its address and personal_sign by signing in this process with viem (a development key), so
// the console's real login path runs: challenge, signature, session. Each screen is saved as a
// screenshot under test-output/screenshots/admin-console-*.png.
import { afterAll, describe, expect, test } from 'bun:test'
import { type AddressInfo, createServer } from 'node:net'
import type { Page } from 'playwright-core'
import type { Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { withdrawRequest } from '../../src/client/actions.ts'
import { PerpdClient } from '../../src/client/perpd-client.ts'
import { eciesEncrypt } from '../../src/wire/ecies.ts'
import { api, loginBytes, removeAdminFiles, startAdmin } from '../support/admin-process.ts'
import {
  allowConsoleErrors,
  browserForFile,
  completedFetch,
  FETCH_RECORDER_SCRIPT,
  fetchCount,
  openPage,
  type RecordedFetch,
  saveScreenshot,
} from '../support/browser.ts'
import { startHyperliquidServer } from '../support/hyperliquid/server.ts'
import { DEV_KEYS, removeDir, startNode } from '../support/node-process.ts'

const ADMIN_KEY = DEV_KEYS[0] as Hex
const TRADER_KEY = DEV_KEYS[1] as Hex
/** Dev key #9 holds Liquidator (docs/protocol.md#development-network): the key the console uploads and binds. */
const LIQUIDATOR_KEY = DEV_KEYS[9] as Hex
const LIQUIDATOR = privateKeyToAccount(LIQUIDATOR_KEY).address.toLowerCase()

// The venue of hedging and the catalog: the local implementation of Hyperliquid's API, with two
// categorized builder-dex markets to sync.
const hl = startHyperliquidServer({
  markets: [
    { coin: 'BTC', szDecimals: 5 },
    { coin: 'ETH', szDecimals: 4 },
  ],
  dexes: [{ name: 'xyz', markets: ['TSLA', 'GOLD'].map((c) => ({ coin: `xyz:${c}`, szDecimals: 2 })) }],
  categories: [
    ['xyz:TSLA', 'stocks'],
    ['xyz:GOLD', 'commodities'],
  ],
})
// The browser first: without Chromium the file fails before it starts processes that nothing would stop.
const browser = await browserForFile()
const node = await startNode()
const admin = await startAdmin({ nodeUrl: node.url, args: ['--venue', 'hl:testnet', '--hl-api-url', hl.url] })
afterAll(async () => {
  await admin.stop()
  await node.stop().catch(() => 0)
  hl.stop()
  removeAdminFiles(admin)
  removeDir(node.dataDir)
})
/** How long a screen may take to show what the test waits for (generous: the machine may be loaded). */
const UI_TIMEOUT_MS = 45_000
/** How long one test may take. */
const TEST_TIMEOUT_MS = 180_000

/** What the test wallet was asked to sign, as 0x-hex. */
interface TestWallet {
  readonly signed: string[]
}

/**
 * Opens the console in a fresh context with a test wallet for `key`. `signWith` signs with another
 * key than the one whose address the wallet reports (a wallet whose signature does not match).
 */
async function openConsole(key: Hex, opts: { url?: string; signWith?: Hex } = {}): Promise<{ page: Page; wallet: TestWallet }> {
  const account = privateKeyToAccount(key)
  const signer = privateKeyToAccount(opts.signWith ?? key)
  const wallet: TestWallet = { signed: [] }
  const context = await browser.newContext()
  context.setDefaultTimeout(UI_TIMEOUT_MS)
  await context.exposeFunction('__testWalletSign', async (messageHex: string, address: string) => {
    if (address.toLowerCase() !== account.address.toLowerCase()) throw new Error(`personal_sign for another address ${address}`)
    wallet.signed.push(messageHex)
    return signer.signMessage({ message: { raw: messageHex as Hex } })
  })
  const content = `${FETCH_RECORDER_SCRIPT}
  window.ethereum = {
    async request({ method, params }) {
      if (method === 'eth_requestAccounts' || method === 'eth_accounts') return [${JSON.stringify(account.address)}]
      if (method === 'personal_sign') return window.__testWalletSign(params[0], params[1])
      throw Object.assign(new Error('unsupported method ' + method), { code: 4200 })
    },
  }`
  const page = await openPage(context, `${opts.url ?? admin.url}/`, { initScript: { content } })
  return { page, wallet }
}

/** The console's token in the page's sessionStorage. */
const tokenOf = async (page: Page) =>
  page.evaluate(() => (JSON.parse(sessionStorage.getItem('perpd-admin.session') ?? '{}') as { token?: string }).token)

// Requests and replies are read from the page's own record of its fetches (FETCH_RECORDER_SCRIPT,
// completedFetch), never through Playwright's request and response events (see there why).

/** Clicks Log in and returns the login request it made, once it completed (answered, or failed). */
async function loginAttempt(page: Page): Promise<RecordedFetch> {
  const from = await fetchCount(page)
  await page.getByTestId('login').click()
  return completedFetch(page, 'POST', '/api/auth/login', from)
}

/** A local port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

/** Logs in through the page and waits for the session header. */
async function logIn(page: Page): Promise<void> {
  await page.getByTestId('login').click()
  await page.getByTestId('session-address').waitFor({ timeout: UI_TIMEOUT_MS })
}

describe('the console page', () => {
  test('GET / serves the page; its script and stylesheet are bundled files beside it, not under /api/', async () => {
    const res = await fetch(`${admin.url}/`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('text/html')
    const html = await res.text()
    expect(html).toContain('<div id="app"></div>')
    expect(html).toContain("script-src 'self'")
    const script = /<script[^>]+src="([^"]+\.js)"/.exec(html)?.[1]
    const style = /<link[^>]+href="([^"]+\.css)"/.exec(html)?.[1]
    expect(script).toMatch(/^\/[^/]/)
    expect(script!.startsWith('/api/')).toBe(false)
    const js = await fetch(`${admin.url}${script}`)
    expect(js.status).toBe(200)
    expect(js.headers.get('content-type')).toContain('javascript')
    expect((await js.text()).length).toBeGreaterThan(1000)
    const css = await fetch(`${admin.url}${style}`)
    expect(css.status).toBe(200)
    expect(await css.text()).toContain('.panel')
    // The API is still the API: no route of the console shadows it, and the OpenAPI document lists only the API.
    expect((await api(admin.url, '/api/nothing-here')).body.reason).toBe('NOT_FOUND')
    const doc = (await api(admin.url, '/api/openapi.json')).body as { paths: Record<string, unknown> }
    expect(Object.keys(doc.paths)).not.toContain('/')
  })

  test(
    "the console refuses to run inside another page's frame",
    async () => {
      const framer = Bun.serve({
        hostname: '127.0.0.1',
        port: 0,
        fetch: () =>
          new Response(`<!doctype html><link rel="icon" href="data:,"><iframe src="${admin.url}/"></iframe>`, {
            headers: { 'content-type': 'text/html' },
          }),
      })
      try {
        const page = await browser.open(`http://127.0.0.1:${framer.port}/`)
        const frame = page.frameLocator('iframe')
        await frame.getByText('does not run inside a frame').waitFor({ timeout: UI_TIMEOUT_MS })
        expect(await frame.getByTestId('login').count()).toBe(0)
      } finally {
        framer.stop(true)
      }
    },
    TEST_TIMEOUT_MS,
  )
})

describe('login', () => {
  test(
    'the wallet signs the exact login bytes of the challenge; the session shows its address and expiry, survives a reload and is revoked at logout',
    async () => {
      const { page, wallet } = await openConsole(ADMIN_KEY)
      await page.getByTestId('login').waitFor()
      await saveScreenshot(page, 'admin-console-login')
      await logIn(page)

      // The one signature was over the 28 bytes of the challenge the service issued (built here by viem).
      const challengeReply = await completedFetch(page, 'GET', '/api/auth/challenge')
      const challenge = JSON.parse(challengeReply.text ?? '') as { challenge: string; timestamp_ms: number }
      expect(wallet.signed).toEqual([loginBytes(challenge.challenge, challenge.timestamp_ms)])
      const address = privateKeyToAccount(ADMIN_KEY).address.toLowerCase()
      expect(await page.getByTestId('session-address').textContent()).toBe(address)
      const token = await tokenOf(page)
      const me = await api(admin.url, '/api/auth/me', { token })
      expect(me.status).toBe(200)
      expect(me.body.address).toBe(address)
      const expiry = new Date(me.body.expires_at_secs * 1000)
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d+Z$/, 'Z')
      expect(await page.getByTestId('session-expiry').textContent()).toBe(`until ${expiry}`)

      // A reload keeps the session (sessionStorage), without signing again.
      await page.reload()
      await page.getByTestId('session-address').waitFor({ timeout: UI_TIMEOUT_MS })
      expect(wallet.signed).toHaveLength(1)

      await page.getByTestId('logout').click()
      await expect(page.getByTestId('login-note').textContent({ timeout: UI_TIMEOUT_MS })).resolves.toContain('the session was revoked')
      expect((await api(admin.url, '/api/auth/me', { token })).status).toBe(401)
      expect(await tokenOf(page)).toBeUndefined()
    },
    TEST_TIMEOUT_MS,
  )

  test(
    '403: an address without the Admin role is told so',
    async () => {
      const { page } = await openConsole(TRADER_KEY)
      allowConsoleErrors(page, /status of 403/)
      await page.getByTestId('login').click()
      const note = page.getByTestId('login-note')
      await note.waitFor({ timeout: UI_TIMEOUT_MS })
      expect(await note.textContent()).toContain('does not hold the Admin role on chain')
      expect(await note.textContent()).toContain('403 NOT_ADMIN')
      await saveScreenshot(page, 'admin-console-login-403')
    },
    TEST_TIMEOUT_MS,
  )

  test(
    '401 for a signature that does not match, then 429 once failures pass the per-address limit',
    async () => {
      // A key of its own, so the failures counted here never lock out the other tests' admin.
      const stranger = '0x3c8f5e2a91d4b7c6e0f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f7' as Hex
      const { page } = await openConsole(stranger, { signWith: TRADER_KEY })
      allowConsoleErrors(page, /status of 401/, /status of 429/)
      const note = page.getByTestId('login-note')
      /** Clicks Log in and returns the status of the login request it makes. */
      const attempt = async () => {
        const login = await loginAttempt(page)
        if (login.status === null) throw new Error(`the login request failed: ${login.error}`)
        return login.status
      }
      expect(await attempt()).toBe(401)
      await note.getByText('401 SIGNATURE_MISMATCH').waitFor()
      expect(await note.textContent()).toContain('The signature does not match the address')
      // docs/admin.md#limits: 10 failed logins a minute per IP and address (a bucket refilled over the
      // minute, so a slow machine may get one more in); then 429.
      const statuses = [401]
      while (statuses.at(-1) === 401 && statuses.length < 30) statuses.push(await attempt())
      expect(statuses.at(-1)).toBe(429)
      expect(statuses.length).toBeGreaterThanOrEqual(11)
      expect(new Set(statuses.slice(0, -1))).toEqual(new Set([401]))
      await note.getByText('429 RATE_LIMITED').waitFor()
      expect(await note.textContent()).toMatch(/Too many attempts: wait \d+ s and try again/)
    },
    TEST_TIMEOUT_MS,
  )

  test(
    '503: a service that cannot reach the chain says so',
    async () => {
      // An admin service whose node is gone (a closed port).
      const lonely = await startAdmin({ nodeUrl: `http://127.0.0.1:${await closedPort()}` })
      try {
        const { page } = await openConsole(ADMIN_KEY, { url: lonely.url })
        // Chromium's login request to this freshly started service was sometimes refused
        // (ERR_CONNECTION_REFUSED) although the service was listening and had served the page:
        // tcpdump saw no packet of that connection on the loopback at all, so the refusal did not
        // come from the service (most likely from this machine's sandbox). A person clicks again; so
        // does the test, up to three times, only when the request itself failed, and says so.
        allowConsoleErrors(page, /status of 503/, /ERR_CONNECTION_REFUSED/)
        let login: RecordedFetch | undefined
        for (let attempt = 1; attempt <= 3 && (login === undefined || login.error !== null); attempt++) {
          login = await loginAttempt(page)
          if (login.error !== null) console.log(`login attempt ${attempt} to ${lonely.url} failed before the service: ${login.error}`)
        }
        expect(login?.status).toBe(503)
        const note = page.getByTestId('login-note')
        await note.filter({ hasText: '503 CHAIN_UNAVAILABLE' }).waitFor({ timeout: UI_TIMEOUT_MS })
        expect(await note.textContent()).toContain('cannot reach the chain node')
      } catch (err) {
        // What the service said is the first thing to read when this fails (once: refused connections).
        throw new Error(`${(err as Error).message}\nthe admin service's output:\n${lonely.output().slice(-4_000)}`)
      } finally {
        await lonely.stop()
        removeAdminFiles(lonely)
      }
    },
    TEST_TIMEOUT_MS,
  )

  test(
    '401 on a screen: a session revoked elsewhere sends the console back to the login with the reason',
    async () => {
      const { page } = await openConsole(ADMIN_KEY)
      allowConsoleErrors(page, /status of 401/)
      await logIn(page)
      await api(admin.url, '/api/auth/logout', { method: 'POST', token: await tokenOf(page) })
      await page.goto(`${admin.url}/#audit`)
      const note = page.getByTestId('login-note')
      await expect(note.textContent({ timeout: UI_TIMEOUT_MS })).resolves.toContain('Your session has ended')
      expect(await note.textContent()).toContain('401 UNAUTHENTICATED')
    },
    TEST_TIMEOUT_MS,
  )
})

describe('keys and services', () => {
  test(
    'a key typed into the page is uploaded only as ciphertext the service decrypts; bound, it cannot be deleted (409 shown); unbound, it can',
    async () => {
      const { page } = await openConsole(ADMIN_KEY)
      await logIn(page)
      const fetchesBefore = await fetchCount(page)
      await page.getByTestId('upload-label').fill('liquidator key')
      await page.getByTestId('upload-secret').fill(LIQUIDATOR_KEY)
      await page.getByTestId('upload-submit').click()
      const uploadNote = page.getByTestId('upload-note')
      await expect(uploadNote.textContent({ timeout: UI_TIMEOUT_MS })).resolves.toContain(`derived ${LIQUIDATOR}`)
      expect(await page.getByTestId('upload-secret').inputValue()).toBe('')

      // The body carried ECIES parts and the address, never the key.
      const posted = (await completedFetch(page, 'POST', '/api/keys', fetchesBefore)).body ?? ''
      const body = JSON.parse(posted) as Record<string, string>
      expect(Object.keys(body).sort()).toEqual(['address', 'ciphertext', 'ephemeral_public_key', 'iv', 'label', 'public_key'])
      expect(body.address).toBe(LIQUIDATOR)
      expect(posted.toLowerCase()).not.toContain(LIQUIDATOR_KEY.slice(2).toLowerCase())
      expect(body.public_key).toBe((await api(admin.url, '/api/keys/encryption-key')).body.public_key)

      // The service decrypted it and derived the address itself; the list shows it.
      const token = await tokenOf(page)
      const keys = (await api(admin.url, '/api/keys', { token })).body.keys as { id: string; address: string; label: string }[]
      const stored = keys.find((k) => k.address === LIQUIDATOR)!
      expect(stored.label).toBe('liquidator key')
      const row = page.getByTestId('keys-table').locator('tr', { hasText: LIQUIDATOR })
      await row.waitFor({ timeout: UI_TIMEOUT_MS })
      expect(await row.textContent()).toContain('liquidator key')
      await saveScreenshot(page, 'admin-console-keys')

      // Bind the liquidator to it on the Services screen; its state comes live from the runner.
      await page.goto(`${admin.url}/#services`)
      await page.getByTestId('bind-key-liquidator').selectOption(stored.id)
      await page.getByTestId('bind-apply-liquidator').click()
      await expect(page.getByTestId('services-note').textContent({ timeout: UI_TIMEOUT_MS })).resolves.toContain('liquidator: bound')
      await page.getByTestId('state-liquidator').filter({ hasText: 'running' }).waitFor({ timeout: UI_TIMEOUT_MS })
      expect((await api(admin.url, '/api/service-config', { token })).body.services.liquidator.key_id).toBe(stored.id)
      await saveScreenshot(page, 'admin-console-services')

      // Deleting the bound key is refused, and the console says why.
      await page.goto(`${admin.url}/#keys`)
      allowConsoleErrors(page, /status of 409/)
      await page.getByTestId(`delete-${LIQUIDATOR}`).click()
      const keysNote = page.getByTestId('keys-note')
      await expect(keysNote.textContent({ timeout: UI_TIMEOUT_MS })).resolves.toContain('is bound to liquidator, so it cannot be deleted')
      expect(await keysNote.textContent()).toContain('409 KEY_BOUND')
      await saveScreenshot(page, 'admin-console-keys-409')
      expect((await api(admin.url, '/api/keys', { token })).body.keys.map((k: { id: string }) => k.id)).toContain(stored.id)

      // Unbound, it goes.
      await page.goto(`${admin.url}/#services`)
      await page.getByTestId('bind-key-liquidator').selectOption('')
      await page.getByTestId('bind-apply-liquidator').click()
      await page.getByTestId('state-liquidator').filter({ hasText: 'stopped' }).waitFor({ timeout: UI_TIMEOUT_MS })
      await page.goto(`${admin.url}/#keys`)
      await page.getByTestId(`delete-${LIQUIDATOR}`).click()
      await expect(page.getByTestId('keys-note').textContent({ timeout: UI_TIMEOUT_MS })).resolves.toContain(
        'Deleted the key liquidator key',
      )
      expect((await api(admin.url, '/api/keys', { token })).body.keys.map((k: { id: string }) => k.id)).not.toContain(stored.id)
    },
    TEST_TIMEOUT_MS,
  )
})

describe('the other screens', () => {
  test(
    'the audit log lists what the console did, newest first',
    async () => {
      const { page } = await openConsole(ADMIN_KEY)
      await logIn(page)
      await page.goto(`${admin.url}/#audit`)
      const table = page.getByTestId('audit-table')
      await table.waitFor({ timeout: UI_TIMEOUT_MS })
      const token = await tokenOf(page)
      // The page's first rows are the service's newest, in its order (this login among them).
      const newest = (await api(admin.url, '/api/audit?limit=5', { token })).body.entries as { id: number; action: string }[]
      expect(newest.map((e) => e.action)).toContain('login')
      const rows = table.locator('tbody tr')
      for (const [i, e] of newest.entries()) {
        const cells = rows.nth(i).locator('td')
        expect(await cells.nth(0).textContent()).toBe(String(e.id))
        expect(await cells.nth(3).textContent()).toBe(e.action)
      }
      await saveScreenshot(page, 'admin-console-audit')
    },
    TEST_TIMEOUT_MS,
  )

  test(
    'hedging: an account added with its key encrypted in the page, a policy, the global config, orders, reconcile and Book B',
    async () => {
      const { page } = await openConsole(ADMIN_KEY)
      await logIn(page)
      await page.goto(`${admin.url}/#hedging`)
      const venueKey = generatePrivateKey()
      const venueAddress = privateKeyToAccount(venueKey).address.toLowerCase()
      const fetchesBefore = await fetchCount(page)
      await page.getByTestId('hedge-account-name').fill('venue one')
      await page.getByTestId('hedge-account-secret').fill(venueKey)
      await page.getByTestId('hedge-account-add').click()
      await expect(page.getByTestId('hedge-accounts-note').textContent({ timeout: UI_TIMEOUT_MS })).resolves.toContain(
        `Added the hedge account venue one (${venueAddress})`,
      )
      const posted = (await completedFetch(page, 'POST', '/api/hedge/accounts', fetchesBefore)).body ?? ''
      expect(posted.toLowerCase()).not.toContain(venueKey.slice(2).toLowerCase())
      expect(Object.keys(JSON.parse(posted).ciphertext).sort()).toEqual(['ciphertext', 'ephemeral_public_key', 'iv'])
      const token = await tokenOf(page)
      const accounts = (await api(admin.url, '/api/hedge/accounts', { token })).body.accounts as { id: string; address: string }[]
      expect(accounts.map((a) => a.address)).toEqual([venueAddress])
      await page.getByTestId('hedge-accounts-table').locator('tr', { hasText: venueAddress }).waitFor({ timeout: UI_TIMEOUT_MS })

      // A policy saved from the form is the one the service lists.
      const form = page.getByTestId('hedge-policy-form')
      await form.getByPlaceholder('BTC-USD').fill('ETH-USD')
      await form.locator('input').nth(1).fill('0.5')
      await form.locator('select').selectOption('reverse')
      await page.getByTestId('hedge-policy-save').click()
      await expect(page.getByTestId('hedge-policies-note').textContent({ timeout: UI_TIMEOUT_MS })).resolves.toContain(
        'Saved the policy of ETH-USD',
      )
      const policies = (await api(admin.url, '/api/hedge/policies', { token })).body.policies as Record<string, unknown>[]
      expect(policies.find((p) => p.market_symbol === 'ETH-USD')).toMatchObject({
        hedge_ratio: '0.5',
        hedge_mode: 'reverse',
        enabled: true,
      })
      await page.getByTestId('hedge-policies-table').locator('tr', { hasText: 'ETH-USD' }).filter({ hasText: 'reverse' }).waitFor()

      // The global config: one field changed, the others kept.
      const before = (await api(admin.url, '/api/hedge/config', { token })).body
      await page.getByTestId('hedge-config-interval_ms').fill('7000')
      await page.getByTestId('hedge-config-save').click()
      await expect(page.getByTestId('hedge-config-note').textContent({ timeout: UI_TIMEOUT_MS })).resolves.toContain('Saved interval_ms')
      const after = (await api(admin.url, '/api/hedge/config', { token })).body
      expect(after.interval_ms).toBe(7000)
      expect(after.threshold_notional).toBe(before.threshold_notional)
      expect(after.dry_run).toBe(before.dry_run)

      // Orders (none yet) with their filters, and a reconciliation started.
      await page.getByTestId('hedge-orders-account').selectOption(accounts[0]!.id)
      await expect(page.getByTestId('hedge-orders-range').textContent()).resolves.toBe('no orders')
      await page.getByTestId('hedge-reconcile').click()
      await expect(page.getByTestId('hedge-orders-note').textContent({ timeout: UI_TIMEOUT_MS })).resolves.toContain(
        'Reconciliation with the venue started',
      )

      // Book B: the chain's markets with their stats, as the service reads them.
      const stats = (await api(admin.url, '/api/hedge/book-b-stats', { token })).body as { markets: { symbol: string }[] }
      expect(stats.markets.length).toBeGreaterThan(0)
      const bookB = page.getByTestId('hedge-bookb-table')
      for (const m of stats.markets) await bookB.locator('td', { hasText: m.symbol }).first().waitFor({ timeout: UI_TIMEOUT_MS })
      await saveScreenshot(page, 'admin-console-hedging')
    },
    TEST_TIMEOUT_MS,
  )

  test(
    'categories: the tree, a sync previewed then imported, the catalog with its sources, a cleanup and its report',
    async () => {
      const { page } = await openConsole(ADMIN_KEY)
      await logIn(page)
      await page.goto(`${admin.url}/#categories`)
      const token = await tokenOf(page)
      const tree = page.getByTestId('categories-table')
      await tree.locator('td', { hasText: 'crypto' }).first().waitFor({ timeout: UI_TIMEOUT_MS })
      expect(await tree.textContent()).toContain('tradfi')

      // The preview lists the venue's categories and writes nothing.
      const catalogBefore = (await api(admin.url, '/api/market-catalog', { token })).body.markets
      await page.getByTestId('sync-preview').click()
      const preview = page.getByTestId('sync-preview-table')
      await preview.waitFor({ timeout: UI_TIMEOUT_MS })
      for (const code of ['stocks', 'commodities']) expect(await preview.textContent()).toContain(code)
      expect((await api(admin.url, '/api/market-catalog', { token })).body.markets).toEqual(catalogBefore)

      // The import of the chosen codes, with its report; the catalog then lists their markets as ext.
      await page.getByTestId('sync-import').click()
      const report = page.getByTestId('sync-report')
      await report.waitFor({ timeout: UI_TIMEOUT_MS })
      expect(await report.textContent()).toContain('markets synced2')
      const markets = (await api(admin.url, '/api/market-catalog', { token })).body.markets as { symbol: string; source: string }[]
      expect(
        markets
          .filter((m) => m.source === 'ext')
          .map((m) => m.symbol)
          .sort(),
      ).toEqual(['gold-usd', 'tsla-usd'])
      const catalog = page.getByTestId('catalog-table')
      await catalog.locator('tr', { hasText: 'tsla-usd' }).filter({ hasText: 'ext' }).waitFor({ timeout: UI_TIMEOUT_MS })
      await tree.locator('td', { hasText: 'stocks' }).first().waitFor({ timeout: UI_TIMEOUT_MS })

      // A category added by hand, at the top level where cleanup will not leave it.
      await page.getByTestId('category-code').fill('forex')
      await page.getByTestId('category-name').fill('Forex')
      await page.getByTestId('category-create').click()
      await expect(page.getByTestId('category-create-note').textContent({ timeout: UI_TIMEOUT_MS })).resolves.toContain(
        'Created the category forex',
      )

      await page.getByTestId('cleanup-run').click()
      const cleanup = page.getByTestId('cleanup-report')
      await cleanup.waitFor({ timeout: UI_TIMEOUT_MS })
      expect(await cleanup.textContent()).toContain('forex (from —, to tradfi)')
      const categories = (await api(admin.url, '/api/market-categories', { token })).body.categories as {
        code: string
        parent_id: number | null
        id: number
      }[]
      const tradfi = categories.find((c) => c.code === 'tradfi')!
      expect(categories.find((c) => c.code === 'forex')!.parent_id).toBe(tradfi.id)

      // A symbol put in a category by hand is a manual entry; the category deleted takes its entries with it.
      await page.getByTestId('catalog-symbols').fill('ABC-USD')
      await page.getByTestId('catalog-category').selectOption({ label: 'forex' })
      await page.getByTestId('catalog-add').click()
      await page.getByTestId('catalog-change-note').getByText('forex: added abc-usd.').waitFor()
      await catalog.locator('tr', { hasText: 'abc-usd' }).filter({ hasText: 'manual' }).waitFor()
      await saveScreenshot(page, 'admin-console-categories')
      await page.getByTestId('category-delete-forex').click()
      await page.getByTestId('categories-note').getByText('Deleted the category forex and its 1 catalog markets.').waitFor()
      const left = (await api(admin.url, '/api/market-catalog', { token })).body.markets as { symbol: string }[]
      expect(left.map((m) => m.symbol)).not.toContain('abc-usd')
      expect(left.map((m) => m.symbol)).toContain('tsla-usd')
    },
    TEST_TIMEOUT_MS,
  )

  test(
    'withdrawals: the bridge withdraw runner, bound from the console, settles a withdrawal and the screen lists it',
    async () => {
      const { page } = await openConsole(ADMIN_KEY)
      await logIn(page)
      await page.goto(`${admin.url}/#withdrawals`)
      await page.getByTestId('withdraw-runner-state').filter({ hasText: 'stopped' }).waitFor()
      await page.getByTestId('withdrawals-panel').getByText('No withdrawal handled yet.').waitFor()

      // Dev key #8 holds BridgeWithdraw: uploaded and bound, the runner settles withdrawals directly on the dev network.
      const token = await tokenOf(page)
      const { public_key } = (await api(admin.url, '/api/keys/encryption-key')).body
      const withdrawKey = DEV_KEYS[8] as Hex
      const uploaded = await api(admin.url, '/api/keys', {
        method: 'POST',
        token,
        body: {
          label: 'withdraw',
          address: privateKeyToAccount(withdrawKey).address,
          ...eciesEncrypt(public_key, new TextEncoder().encode(withdrawKey)),
        },
      })
      expect(uploaded.status).toBe(201)
      const bound = await api(admin.url, '/api/service-config', {
        method: 'PUT',
        token,
        body: { service: 'bridge_withdraw', key_id: uploaded.body.id, enabled: true },
      })
      expect(bound.status).toBe(200)
      await page.getByTestId('withdraw-runner-state').filter({ hasText: 'running' }).waitFor()

      // A trader (dev key #2) asks for a withdrawal; the runner claims and settles it; the screen shows the row.
      const trader = new PerpdClient({ url: node.url, privateKey: DEV_KEYS[2]! })
      const destination = privateKeyToAccount(DEV_KEYS[3] as Hex).address
      const requested = await trader.send((nonce, network) => withdrawRequest({ network, destination, amount: '12.5', nonce }))
      if (requested.status !== 'accepted') throw new Error(JSON.stringify(requested))
      const id = requested.events.find((e) => e.sub_kind === 'WithdrawalRequested')!.body.withdrawal_id as number
      const row = page.getByTestId('withdrawals-table').locator('tr', { hasText: 'settled' }).filter({ hasText: '12.5' })
      await row.waitFor()
      expect(await row.locator('td').first().textContent()).toBe(String(id))
      const rows = (await api(admin.url, '/api/bridge/withdrawals', { token })).body.withdrawals as {
        withdrawal_id: number
        status: string
      }[]
      expect(rows).toEqual([expect.objectContaining({ withdrawal_id: id, status: 'settled', amount: '12.5' })])
      await saveScreenshot(page, 'admin-console-withdrawals')
    },
    TEST_TIMEOUT_MS,
  )
})

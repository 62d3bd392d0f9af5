// The chain explorer (docs/explorer.md) in headless Chromium against a real dev node with traffic
// this file makes: resting BTC-USD orders of dev account #1, takers #2 and #3 crossing them, a
// bridge deposit. It checks the book against the resting orders, a trade that arrives over the
// WebSocket without a reload, the chart's candles of every interval against /api/v1/candles, and
// the search box (address, tx hash, height); a screenshot of each screen goes to
// test-output/screenshots/. Any page error or console error fails the test (test/support/browser.ts).
import { beforeAll, describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { creditDeposit, placeOrder } from '../../src/client/actions.ts'
import type { PerpdClient } from '../../src/client/perpd-client.ts'
import { browserForFile, openPage, saveScreenshot } from '../support/browser.ts'
import { accepted, startDevNodeForFile } from '../support/dev-node.ts'
import { until } from '../support/poll.ts'

// The browser first: without Chromium the file fails before it starts a node that nothing would stop.
const browser = await browserForFile()
const dev = await startDevNodeForFile()
const url = dev.node.url

/** How long the page may take to show what the node already has. */
const SHOW_TIMEOUT_MS = 15_000

const BTC = 1
const maker = dev.client(1)
const buyer = dev.client(2)
const seller = dev.client(3)
const bridge = dev.client(8)

/** The maker's resting orders: price → size, at BTC-USD's 1 price and 4 size decimals. */
const RESTING_BIDS = [
  ['64900', '0.01'],
  ['64800', '0.02'],
  ['64700', '0.03'],
] as const
const RESTING_ASKS = [
  ['65100', '0.01'],
  ['65200', '0.02'],
  ['65300', '0.03'],
] as const

/** The explorer's grouping of a decimal string (src/explorer/format.ts). */
const grouped = (s: string) => s.replace(/\B(?=(\d{3})+(?!\d))/g, ',')

async function order(client: PerpdClient, side: 'Bid' | 'Ask', price: string, qty: string, tif: 'Gtc' | 'Ioc') {
  return accepted(await client.send(placeOrder({ market_id: BTC, side, price, qty, tif, reduce_only: false })))
}

/** Waits until the history index has every block through `height` (search and block pages read it). */
async function indexedThrough(height: number): Promise<void> {
  await until(
    `the index at height ${height}`,
    async () => (await (await fetch(`${url}/api/v1/status`)).json()) as { watermark: number | null; derive_lag_blocks: number },
    (s) => s.watermark !== null && s.watermark >= height && s.derive_lag_blocks === 0,
    30_000,
  )
}

/** The text of every cell of `selector`'s rows, row by row. */
async function cells(page: Page, selector: string): Promise<string[][]> {
  return page.$$eval(selector, (rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent?.trim() ?? '')))
}

/** Types `q` into the search box and submits it. */
async function search(page: Page, q: string): Promise<void> {
  await page.fill('form.search input', q)
  await page.press('form.search input', 'Enter')
}

let firstTradeHeight = 0
let depositTx = ''

beforeAll(async () => {
  for (const [price, qty] of RESTING_BIDS) await order(maker, 'Bid', price, qty, 'Gtc')
  for (const [price, qty] of RESTING_ASKS) await order(maker, 'Ask', price, qty, 'Gtc')
  // Two trades before any page opens: a buy that takes part of the best ask, a sell into the best bid.
  firstTradeHeight = (await order(buyer, 'Bid', '65100', '0.004', 'Ioc')).height
  await order(seller, 'Ask', '64900', '0.003', 'Ioc')
  depositTx = accepted(await bridge.send(creditDeposit({ account: maker.address, amount: '250', deposit_id: 'explorer-1' }))).tx_hash
}, 60_000)

describe('the chain explorer served by perpd at /', () => {
  test('GET / serves the page and its bundle; /api stays the API', async () => {
    const res = await fetch(`${url}/`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('text/html')
    const html = await res.text()
    expect(html).toContain('<title>perpd explorer</title>')
    const script = html.match(/<script type="module"[^>]* src="(\/[^"]+\.js)"/)?.[1]
    expect(script).toBeDefined()
    const js = await fetch(`${url}${script}`)
    expect(js.status).toBe(200)
    expect(js.headers.get('content-type')).toContain('javascript')
    expect((await js.text()).length).toBeGreaterThan(10_000)
    expect((await fetch(`${url}/api/v1/markets`)).status).toBe(200)
    expect((await fetch(`${url}/api/v1/no-such-route`)).status).toBe(404)
  })

  test('markets: lifecycle, mark, volume and open interest of every market', async () => {
    const page = await browser.open(`${url}/#/markets`)
    const row = page.locator('table.markets tr[data-symbol="BTC-USD"]')
    await row.waitFor({ timeout: SHOW_TIMEOUT_MS })
    const markets = (await (
      await fetch(`${url}/api/v1/query`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getMarkets', params: {} }),
      })
    ).json()) as { result: { data: { symbol: string; lifecycle: string; mark_price: string; open_interest: string }[] } }
    expect(await page.locator('table.markets tbody tr').count()).toBe(markets.result.data.length)
    const btc = markets.result.data.find((m) => m.symbol === 'BTC-USD')!
    await expect(row.locator('.lifecycle').textContent()).resolves.toBe(btc.lifecycle)
    // 0.004 + 0.003 traded in this hour's bucket; OI is both takers' positions.
    await expect(row.locator('td.volume').textContent()).resolves.toBe('0.007')
    const [, , mark, , , , , oi] = (await cells(page, 'table.markets tr[data-symbol="BTC-USD"]'))[0]!
    expect(mark).toBe(grouped(btc.mark_price))
    expect(oi).toBe(btc.open_interest)
    await saveScreenshot(page, 'explorer-markets')
  })

  test('market: the book shows the resting orders; a trade arrives over the WebSocket without a reload', async () => {
    const page = await browser.open(`${url}/#/market/BTC-USD`)
    await page.locator('table.book tr.ask').first().waitFor({ timeout: SHOW_TIMEOUT_MS })
    // What rests: the asks less the 0.004 bought, the bids less the 0.003 sold.
    const asks = await cells(page, 'table.book tr.ask')
    const bids = await cells(page, 'table.book tr.bid')
    expect(asks.map(([price, qty]) => [price, qty])).toEqual([
      ['65,300', '0.03'],
      ['65,200', '0.02'],
      ['65,100', '0.006'],
    ])
    expect(bids.map(([price, qty]) => [price, qty])).toEqual([
      ['64,900', '0.007'],
      ['64,800', '0.02'],
      ['64,700', '0.03'],
    ])
    // The trades of before the page opened, read over HTTP.
    await page.locator('table.trades tbody tr').nth(1).waitFor({ timeout: SHOW_TIMEOUT_MS })
    expect((await cells(page, 'table.trades tbody tr')).map((r) => r.slice(1, 4))).toEqual([
      ['64,900', '0.003', 'sell'],
      ['65,100', '0.004', 'buy'],
    ])

    // A marker in the page's memory: still there after the trade means the page did not reload.
    await page.evaluate('window.explorerTestMarker = 27')
    const fill = await order(buyer, 'Bid', '65200', '0.012', 'Ioc')
    const fresh = page.locator('table.trades tbody tr.pushed')
    await fresh.first().waitFor({ timeout: SHOW_TIMEOUT_MS })
    const pushed = await cells(page, 'table.trades tbody tr.pushed')
    // The taker met 0.006 at 65,100 and 0.006 at 65,200, in one block.
    expect(pushed.map((r) => r.slice(1, 5)).sort()).toEqual([
      ['65,100', '0.006', 'buy', String(fill.height)],
      ['65,200', '0.006', 'buy', String(fill.height)],
    ])
    expect(await page.evaluate('window.explorerTestMarker')).toBe(27)
    // The book follows: the 65,100 ask is gone, 0.014 left at 65,200.
    await until(
      'the book without the 65,100 ask',
      () => cells(page, 'table.book tr.ask'),
      (rows) => rows.length === 2,
      SHOW_TIMEOUT_MS,
    )
    expect((await cells(page, 'table.book tr.ask')).map(([price, qty]) => [price, qty])).toEqual([
      ['65,300', '0.03'],
      ['65,200', '0.014'],
    ])
    await saveScreenshot(page, 'explorer-market')
  }, 60_000)

  test("market: the chart's candles of every interval match /api/v1/candles", async () => {
    const page = await browser.open(`${url}/#/market/BTC-USD`)
    await page.locator('.intervals button').first().waitFor({ timeout: SHOW_TIMEOUT_MS })
    const intervals = await page.$$eval('.intervals button', (buttons) => buttons.map((b) => b.textContent ?? ''))
    expect(intervals).toEqual(['1m', '3m', '5m', '15m', '30m', '1h', '2h', '4h', '8h', '12h', '1d', '3d', '1w', '1M'])
    for (const interval of intervals) {
      await page.click(`.intervals button:text-is("${interval}")`)
      const chart = page.locator(`.candles[data-interval="${interval}"] .chart`)
      await until(
        `the ${interval} chart loaded`,
        () => chart.getAttribute('data-count'),
        (n) => n !== null && n !== '' && n !== '0',
        SHOW_TIMEOUT_MS,
      )
      const rest = (await (await fetch(`${url}/api/v1/candles?symbol=BTC-USD&interval=${interval}&limit=500`)).json()) as {
        t: number
        o: string
        h: string
        l: string
        c: string
        v: string
        n: number
      }[]
      expect(rest.length).toBeGreaterThan(0)
      expect(await chart.getAttribute('data-count')).toBe(String(rest.length))
      expect(await chart.getAttribute('data-first-t')).toBe(String(rest[0]!.t))
      expect(await chart.getAttribute('data-last-t')).toBe(String(rest.at(-1)!.t))
      // The table under the chart: the newest candles, newest first, field for field.
      const rows = await page.$$eval(`.candles[data-interval="${interval}"] table.candle-table tbody tr`, (trs) =>
        trs.map((tr) => [Number(tr.getAttribute('data-t')), ...[...tr.querySelectorAll('td')].slice(1).map((td) => td.textContent)]),
      )
      const expected = rest
        .slice(-8)
        .reverse()
        .map((c) => [c.t, c.o, c.h, c.l, c.c, c.v, String(c.n)])
      expect(rows).toEqual(expected)
      // Every trade of this file is in the bucket (o/h/l/c over 65,100, 64,900, 65,100, 65,200).
      if (rest.length === 1) expect(expected[0]!.slice(1)).toEqual(['65100', '65200', '64900', '65200', '0.019', '4'])
      if (interval === '1m') await saveScreenshot(page, 'explorer-market-chart')
    }
  }, 90_000)

  test('blocks: the list, a block with its envelopes and events', async () => {
    await indexedThrough(firstTradeHeight)
    const page = await browser.open(`${url}/#/blocks`)
    await page.locator('table.blocks tbody tr').first().waitFor({ timeout: SHOW_TIMEOUT_MS })
    expect(await page.locator('table.blocks tbody tr').count()).toBe(25)
    await saveScreenshot(page, 'explorer-blocks')

    await page.goto(`${url}/#/block/${firstTradeHeight}`)
    await page.locator('article.envelope').first().waitFor({ timeout: SHOW_TIMEOUT_MS })
    await page.getByRole('heading', { level: 1, name: `Block ${firstTradeHeight}`, exact: true }).waitFor({ timeout: SHOW_TIMEOUT_MS })
    const envelope = page.locator('article.envelope', { hasText: 'PlaceOrder' }).first()
    await expect(envelope.locator('.status').textContent()).resolves.toBe('accepted')
    const subKinds = await envelope.locator('table.events tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-sub-kind')))
    expect(subKinds).toContain('Filled')
    await saveScreenshot(page, 'explorer-block')
  }, 60_000)

  test('account: balances, positions, open orders, fills, fund and bridge flows', async () => {
    await until(
      'the deposit in the index',
      async () => (await (await fetch(`${url}/api/v1/bridge-flows?account=${maker.address}`)).json()) as { data: unknown[] },
      (r) => r.data.length === 1,
      30_000,
    )
    const page = await browser.open(`${url}/#/account/${maker.address}`)
    await page.locator('table.orders tbody tr').first().waitFor({ timeout: SHOW_TIMEOUT_MS })
    // Five of the six orders still rest (the 65,100 ask filled; the 64,900 bid partly).
    expect(await page.locator('table.orders tbody tr').count()).toBe(5)
    await page.locator('table.bridge-flows tbody tr').first().waitFor({ timeout: SHOW_TIMEOUT_MS })
    const [bridgeRow] = await cells(page, 'table.bridge-flows tbody tr')
    expect(bridgeRow!.slice(1, 5)).toEqual(['deposit', 'credited', '250', 'explorer-1'])
    await page.locator('table.fills tbody tr').nth(3).waitFor({ timeout: SHOW_TIMEOUT_MS })
    expect(await page.locator('table.fills tbody tr').count()).toBe(4)
    expect(await page.locator('table.positions tbody tr').count()).toBe(1)
    await page.locator('table.fund-flows tbody tr').first().waitFor({ timeout: SHOW_TIMEOUT_MS })
    await saveScreenshot(page, 'explorer-account')
  }, 60_000)

  test('search finds an address, a tx hash and a height', async () => {
    await indexedThrough(firstTradeHeight)
    const page = await browser.open(`${url}/#/markets`)
    await search(page, buyer.address.toUpperCase().replace('0X', '0x'))
    await page.waitForURL((u) => u.hash === `#/account/${buyer.address.toLowerCase()}`, { timeout: SHOW_TIMEOUT_MS })
    await page.locator('h1 .mono', { hasText: buyer.address.toLowerCase() }).waitFor({ timeout: SHOW_TIMEOUT_MS })

    await search(page, depositTx)
    await page.waitForURL((u) => u.hash === `#/tx/${depositTx}`, { timeout: SHOW_TIMEOUT_MS })
    await page.locator('article.envelope').waitFor({ timeout: SHOW_TIMEOUT_MS })
    await expect(page.locator('article.envelope b').first().textContent()).resolves.toBe('CreditDeposit')
    await saveScreenshot(page, 'explorer-tx')

    await search(page, String(firstTradeHeight))
    await page.waitForURL((u) => u.hash === `#/block/${firstTradeHeight}`, { timeout: SHOW_TIMEOUT_MS })
    await page.getByRole('heading', { level: 1, name: `Block ${firstTradeHeight}`, exact: true }).waitFor({ timeout: SHOW_TIMEOUT_MS })

    await search(page, 'no-such-thing')
    await page.locator('p.empty', { hasText: 'Nothing matches' }).waitFor({ timeout: SHOW_TIMEOUT_MS })
    await saveScreenshot(page, 'explorer-search-miss')
  }, 60_000)

  test('a narrow screen gets one column and no screen is wider than it', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } })
    const page = await openPage(context, `${url}/#/market/BTC-USD`)
    await page.locator('table.book tr.ask').first().waitFor({ timeout: SHOW_TIMEOUT_MS })
    const widths = await page.$$eval('.market-grid > .panel', (panels) => panels.map((p) => Math.round(p.getBoundingClientRect().width)))
    expect(new Set(widths).size).toBe(1)
    // Nothing wider than the screen: wide tables scroll inside their panels.
    const fits = 'document.documentElement.scrollWidth <= window.innerWidth'
    expect(await page.evaluate(fits)).toBe(true)
    await saveScreenshot(page, 'explorer-market-narrow')
    for (const [hash, shown] of [
      ['#/markets', 'table.markets tbody tr'],
      [`#/block/${firstTradeHeight}`, 'article.envelope'],
      [`#/account/${maker.address}`, 'table.orders tbody tr'],
    ] as const) {
      await page.goto(`${url}/${hash}`)
      await page.locator(shown).first().waitFor({ timeout: SHOW_TIMEOUT_MS })
      expect({ hash, fits: await page.evaluate(fits) }).toEqual({ hash, fits: true })
    }
  }, 60_000)

  test('a lost WebSocket frame: the page starts over and reads the trade it missed', async () => {
    // Between the page and the node, a route that forwards every frame but can drop the next trades push.
    let dropTrades = false
    let dropped = 0
    let connections = 0
    const context = await browser.newContext()
    await context.routeWebSocket(/\/api\/v1\/ws$/, (ws) => {
      connections++
      const server = ws.connectToServer()
      server.onMessage((message) => {
        if (dropTrades && typeof message === 'string' && message.includes('"topic":"trades.BTC-USD"')) {
          dropTrades = false
          dropped++
          return
        }
        ws.send(message)
      })
    })
    const page = await openPage(context, `${url}/#/market/BTC-USD`)
    await page.locator('table.trades tbody tr').first().waitFor({ timeout: SHOW_TIMEOUT_MS })
    expect(connections).toBe(1)

    dropTrades = true
    const fill = await order(seller, 'Ask', '64900', '0.002', 'Ioc')
    // The next frame's seq jumps: PerpdWsClient reconnects, subscribes again and re-reads the trades.
    const row = page.locator(`table.trades tbody tr[data-key="${fill.height}:${fill.events.find((e) => e.sub_kind === 'Filled')!.seq}"]`)
    await row.waitFor({ timeout: SHOW_TIMEOUT_MS })
    expect(dropped).toBe(1)
    expect(connections).toBe(2)
    expect((await cells(page, `table.trades tbody tr[data-key^="${fill.height}:"]`)).map((r) => r.slice(1, 4))).toEqual([
      ['64,900', '0.002', 'sell'],
    ])
    // Read over HTTP after the reconnect, not pushed.
    expect(await row.getAttribute('class')).toBe('sell')
  }, 60_000)
})

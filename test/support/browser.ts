// Browser tests: Debian's Chromium driven by playwright-core, headless and offline, pages that fail
// the test on any page error or console error, and screenshots saved under test-output/ for a
// person to look at (not committed).
import { afterAll, afterEach } from 'bun:test'
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'
import { PROJECT_ROOT } from './child-process.ts'

/** Where the browser tests expect Chromium (Debian's package); `.ci/run` installs it when missing. */
export const CHROMIUM_PATH = '/usr/bin/chromium'

/** Where saveScreenshot writes (ignored by git). */
export const SCREENSHOT_DIR = join(PROJECT_ROOT, 'test-output', 'screenshots')

/**
 * Chromium's switches: no sandbox (tests run as root in containers), no GPU, and nothing that
 * reaches the network on its own (updates, sync, QUIC probes), so a test talks only to its servers.
 */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/**
 * Launches headless Chromium. Throws, naming the fix, when it is not installed: a browser test
 * never skips silently.
 */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium is not installed at ${CHROMIUM_PATH}: .ci/run installs it (apt-get install chromium)`)
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS })
}

/** What can go wrong on a page: uncaught exceptions and console.error messages (including failed loads). */
interface PageProblems {
  readonly problems: string[]
  /** Console errors matching one of these are expected (e.g. the 401 a login screen provokes). */
  readonly allowed: RegExp[]
}

const problemsOf = new WeakMap<Page, PageProblems>()

/** Options of {@link openPage}. */
export interface OpenPageOptions {
  /** Console errors that are expected on this page (matched against the message text). */
  readonly allowedConsoleErrors?: readonly RegExp[]
  /** Runs before any of the page's scripts (e.g. to inject window.ethereum): Playwright's addInitScript. */
  readonly initScript?: Parameters<Page['addInitScript']>[0]
}

/**
 * Opens `url` in a new page of `context`, recording its page errors and console errors; the
 * browser from {@link browserForFile} fails the test that opened it when there are any (or call
 * {@link expectNoPageProblems} yourself).
 */
export async function openPage(context: BrowserContext, url: string, opts: OpenPageOptions = {}): Promise<Page> {
  const page = await context.newPage()
  const record: PageProblems = { problems: [], allowed: [...(opts.allowedConsoleErrors ?? [])] }
  problemsOf.set(page, record)
  page.on('pageerror', (err) => record.problems.push(`page error: ${err.stack ?? err.message}`))
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return
    const text = msg.text()
    if (record.allowed.some((re) => re.test(text))) return
    const where = msg.location()
    record.problems.push(`console error: ${text}${where.url ? ` (${where.url}:${where.lineNumber})` : ''}`)
  })
  if (opts.initScript !== undefined) await page.addInitScript(opts.initScript)
  await page.goto(url)
  return page
}

/**
 * An init script (openPage's initScript, before the page's own scripts) that records every fetch
 * the page makes in `window.__fetches`: method, absolute URL, a string body, then the status and
 * the reply's text (or the error). Tests read requests and replies from it rather than through
 * Playwright's request and response events: with Bun, playwright-core sometimes handled a
 * response's creation before its request's and lost both, and the page with them (seen with
 * page.on('request') and with waitForRequest alike).
 */
export const FETCH_RECORDER_SCRIPT = `(() => {
  const calls = []
  Object.defineProperty(window, '__fetches', { value: calls })
  const original = window.fetch.bind(window)
  window.fetch = async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
    const call = {
      method: String(init?.method ?? (typeof input === 'object' && 'method' in input ? input.method : 'GET')).toUpperCase(),
      url: new URL(url, location.href).href,
      body: typeof init?.body === 'string' ? init.body : null,
      status: null,
      text: null,
      error: null,
      done: false,
    }
    calls.push(call)
    try {
      const res = await original(input, init)
      call.status = res.status
      res.clone().text().then(
        (text) => { call.text = text; call.done = true },
        (err) => { call.error = String(err); call.done = true },
      )
      return res
    } catch (err) {
      call.error = String(err)
      call.done = true
      throw err
    }
  }
})()`

/** A fetch the page made, as FETCH_RECORDER_SCRIPT recorded it once it completed. */
export interface RecordedFetch {
  readonly method: string
  readonly url: string
  readonly body: string | null
  readonly status: number | null
  readonly text: string | null
  readonly error: string | null
}

/** How many fetches the page has made so far (pass it to completedFetch to wait for a later one). */
export async function fetchCount(page: Page): Promise<number> {
  return page.evaluate(() => (globalThis as unknown as { __fetches: unknown[] }).__fetches.length)
}

/** Waits for the first fetch from index `from` on with this method and a URL ending in `urlSuffix` to complete; returns it. */
export async function completedFetch(page: Page, method: string, urlSuffix: string, from = 0, timeoutMs = 45_000): Promise<RecordedFetch> {
  const handle = await page.waitForFunction(
    ([m, suffix, start]) =>
      (globalThis as unknown as { __fetches: (RecordedFetch & { done: boolean })[] }).__fetches
        .slice(start)
        .find((c) => c.done && c.method === m && c.url.endsWith(suffix)),
    [method, urlSuffix, from] as const,
    { timeout: timeoutMs },
  )
  const call = (await handle.jsonValue()) as RecordedFetch & { done?: boolean }
  await handle.dispose()
  return { method: call.method, url: call.url, body: call.body, status: call.status, text: call.text, error: call.error }
}

/** Adds console errors that are expected on `page` from now on (e.g. before provoking a 403). */
export function allowConsoleErrors(page: Page, ...patterns: RegExp[]): void {
  const record = problemsOf.get(page)
  if (record === undefined) throw new Error('allowConsoleErrors: the page was not opened with openPage')
  record.allowed.push(...patterns)
}

/** Throws, listing them, when `page` had page errors or unexpected console errors. */
export function expectNoPageProblems(page: Page): void {
  const record = problemsOf.get(page)
  if (record === undefined) throw new Error('expectNoPageProblems: the page was not opened with openPage')
  if (record.problems.length > 0) throw new Error(`the page ${page.url()} reported:\n${record.problems.join('\n')}`)
}

/**
 * Saves a full-page PNG of `page` as test-output/screenshots/<name>.png and returns its path.
 * `name` is a file name without extension, e.g. `explorer-markets`.
 */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  if (!/^[A-Za-z0-9._-]+$/.test(name)) throw new Error(`saveScreenshot: a plain file name, not ${JSON.stringify(name)}`)
  mkdirSync(SCREENSHOT_DIR, { recursive: true })
  const path = join(SCREENSHOT_DIR, `${name}.png`)
  await page.screenshot({ path, fullPage: true })
  return path
}

/** The browser of one test file, from {@link browserForFile}. */
export interface FileBrowser {
  readonly browser: Browser
  /**
   * A fresh context (its own cookies and storage) for the current test; closed after the test,
   * when its pages' problems are checked.
   */
  newContext(opts?: Parameters<Browser['newContext']>[0]): Promise<BrowserContext>
  /** openPage in a fresh context of the current test. */
  open(url: string, opts?: OpenPageOptions): Promise<Page>
}

/**
 * Launches Chromium for the calling test file (call it at the top level of the file). After each
 * test, every page opened in its contexts is checked (the test fails on any page error or
 * unexpected console error) and the contexts are closed; the browser closes after the file.
 */
export async function browserForFile(): Promise<FileBrowser> {
  const browser = await launchBrowser()
  // Playwright (in process) passes every protocol message through setImmediate; Bun can leave queued
  // immediates waiting until some other event wakes its loop, which stalled a page's replies until
  // the test's own timeout fired. A timer that turns the loop keeps them flowing.
  const loopTurner = setInterval(() => {}, 20)
  let contexts: BrowserContext[] = []
  afterEach(async () => {
    const open = contexts
    contexts = []
    const failures: string[] = []
    for (const context of open) {
      for (const page of context.pages()) {
        try {
          expectNoPageProblems(page)
        } catch (err) {
          failures.push((err as Error).message)
        }
      }
      await context.close()
    }
    if (failures.length > 0) throw new Error(failures.join('\n\n'))
  })
  afterAll(async () => {
    clearInterval(loopTurner)
    await browser.close()
  })
  const newContext = async (opts?: Parameters<Browser['newContext']>[0]) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, ...opts })
    contexts.push(context)
    return context
  }
  return {
    browser,
    newContext,
    open: async (url, opts) => openPage(await newContext(), url, opts),
  }
}

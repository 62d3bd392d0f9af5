// Builds the admin service from its configuration: data directory, KEK, database, key store, ECIES
// key, sessions, runners and the HTTP app; starts the components of the stored bindings; serves
// (over TLS with --tls-cert / --tls-key).

import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import packageJson from '../../package.json' with { type: 'json' }
import { RpcClient } from '../client/rpc-client.ts'
import { DataDirInUse, type DataDirLock, lockDataDir } from '../lib/data-dir-lock.ts'
import { cannotListenMessage } from '../lib/listen-error.ts'
import type { Logger } from '../lib/log.ts'
import { RateLimiter } from '../lib/rate-limit.ts'
import { ChallengeBook } from './auth/challenges.ts'
import { SessionStore } from './auth/sessions.ts'
import { catalogRoutes } from './catalog/routes.ts'
import { type AdminConfig, TEST_HEDGE_PAUSE_VARIABLE } from './config.ts'
import { ServerKey } from './crypto/server-key.ts'
import { HedgeAccountStore } from './hedge/account-store.ts'
import { HedgeEngine } from './hedge/engine.ts'
import { hedgerSpec } from './hedge/hedger-spec.ts'
import { HedgeOrderStore } from './hedge/order-store.ts'
import { HedgePolicyStore } from './hedge/policy-store.ts'
import { hedgeRoutes } from './hedge/routes.ts'
import { createAdminApp } from './http/app.ts'
import { AuthGuard } from './http/auth-guard.ts'
import { clientIpResolver } from './http/helpers.ts'
import { auditRoutes } from './http/routes-audit.ts'
import { authRoutes } from './http/routes-auth.ts'
import { consolePages } from './http/routes-console.ts'
import { healthRoutes } from './http/routes-health.ts'
import { keyRoutes } from './http/routes-keys.ts'
import { metricsRoutes } from './http/routes-metrics.ts'
import { openApiRoutes } from './http/routes-openapi.ts'
import { serviceRoutes } from './http/routes-services.ts'
import { withdrawalRoutes } from './http/routes-withdrawals.ts'
import { bridgeDepositSpec } from './runners/bridge-deposit.ts'
import { bridgeWithdrawSpec } from './runners/bridge-withdraw.ts'
import { depositSourceFor } from './runners/deposit-source.ts'
import { liquidatorSpec } from './runners/liquidator.ts'
import { oracleSpec } from './runners/oracle.ts'
import { priceSourceFor } from './runners/price-source.ts'
import { RunnerSupervisor } from './runners/supervisor.ts'
import { HttpWithdrawalPayout } from './runners/withdraw-payout.ts'
import { StartRefused } from './start-refused.ts'
import { appendAudit, verifyAuditChain } from './store/audit.ts'
import { BindingStore, SERVICE_NAMES } from './store/bindings.ts'
import { BridgeStore } from './store/bridge-store.ts'
import { checkDatabaseFileModes, ensureDataDirectory, prepareDataDir } from './store/data-dir.ts'
import { AdminDb } from './store/db.ts'
import { ADMIN_PID_FILE } from './store/kek-rotation.ts'
import { KeyStore } from './store/key-store.ts'
import { createVenue, type VenueSpec, venueSpecText } from './venues/index.ts'

/** The service's package version, reported by GET /api/health. */
export const ADMIN_VERSION: string = packageJson.version

/** Login limits (docs/admin.md#limits): per minute, as token buckets of that many tokens refilled over a minute. */
export const LOGIN_LIMITS = {
  challengesPerIpPerMin: 120,
  loginsPerIpPerMin: 120,
  loginFailuresPerIpAndAddressPerMin: 10,
  failedLoginAuditRowsPerMin: 600,
} as const

/** Timeout of the service's own reads of the chain (role checks). */
const CHAIN_READ_TIMEOUT_MS = 5_000

/** A running admin service. */
export interface AdminService {
  readonly url: string
  stop(): Promise<void>
}

/**
 * Starts the service; throws (KekError, SQLite errors…) when it cannot. Its parts log through
 * children of `log`. `onListening` runs once the port is bound and before anything else is logged
 * or started, so the first address a supervisor reads from the output is the service's own.
 */
export async function startAdminService(config: AdminConfig, log: Logger, onListening: (url: string) => void): Promise<AdminService> {
  const clock = Date.now
  const tls = config.tls === undefined ? undefined : readTls(config.tls)
  // One service per data directory (lib/data-dir-lock.ts): a second would run the runners with the
  // same keys. Taken first, before the directory's key or database is created or opened.
  const lock = lockAdminDataDir(config.dataDir)
  const { kek } = prepareDataDir({ dataDir: config.dataDir, kekFile: config.kekFile, dev: config.dev, log })
  const db = AdminDb.open(config.dataDir)
  checkDatabaseFileModes(config.dataDir)
  const keys = new KeyStore(db, kek, clock)
  keys.checkKek(config.kekFile)
  const pidFile = join(config.dataDir, ADMIN_PID_FILE)
  writeFileSync(pidFile, `${process.pid}\n`, { mode: 0o600 })
  chmodSync(pidFile, 0o600)
  const clientIp = clientIpResolver(config.trustedProxies)
  const bindings = new BindingStore(db, clock)
  const bridge = new BridgeStore(db, clock)
  const rpc = new RpcClient(config.nodeUrl, CHAIN_READ_TIMEOUT_MS)
  const sessions = new SessionStore(clock)
  const guard = new AuthGuard(sessions, rpc, clock)
  const serverKey = new ServerKey(clock)
  // The one external venue of the service (--venue): hedging and the market catalog use it, and
  // the oracle too when --price-source names the same venue (docs/admin.md#venues).
  const venue = createVenue(config.venue, { hlApiUrl: config.hlApiUrl })
  const venueFor = (spec: VenueSpec) =>
    venueSpecText(spec) === venueSpecText(config.venue) ? venue : createVenue(spec, { hlApiUrl: config.hlApiUrl })
  const hedgeAccounts = new HedgeAccountStore(db, kek, clock)
  const hedgePolicies = new HedgePolicyStore(db, clock)
  const hedgeOrders = new HedgeOrderStore(db, clock)
  const hedgePauseMs = testHedgePauseMs(log)
  const hedge = new HedgeEngine({
    db,
    accounts: hedgeAccounts,
    policies: hedgePolicies,
    orders: hedgeOrders,
    rpc,
    venue,
    log: log.child('hedger'),
    clock,
    ...(hedgePauseMs === undefined ? {} : { pauseAfterRecordMs: hedgePauseMs }),
  })

  const supervisor = new RunnerSupervisor({
    nodeUrl: config.nodeUrl,
    keys,
    log,
    clock,
    specs: {
      oracle: oracleSpec({
        priceSource: config.priceSource === undefined ? undefined : priceSourceFor(config.priceSource, venueFor),
        intervalMs: config.oracleIntervalMs,
        refreshMs: config.quoteRefreshMs,
      }),
      liquidator: liquidatorSpec({ intervalMs: config.runnerIntervalMs }),
      bridge_deposit: bridgeDepositSpec({
        source: config.depositSource === undefined ? undefined : depositSourceFor(config.depositSource),
        store: bridge,
        intervalMs: config.runnerIntervalMs,
      }),
      bridge_withdraw: bridgeWithdrawSpec({
        store: bridge,
        intervalMs: config.runnerIntervalMs,
        settleWithoutPayout: config.settleWithoutPayout,
        payout:
          config.withdrawPayoutUrl === undefined
            ? undefined
            : new HttpWithdrawalPayout(config.withdrawPayoutUrl, config.withdrawPayoutTimeoutMs),
      }),
      hedger: hedgerSpec(hedge, hedgePolicies),
    },
  })

  const minute = 60_000
  const app = createAdminApp(
    log,
    [
      // First, so its hooks count the replies of every route after it.
      metricsRoutes({
        status: (s, b) => supervisor.status(s, b),
        bindings: () => bindings.all(),
        clock,
        hedgeOrdersByStatus: () => hedgeOrders.countsByStatus(),
      }),
      healthRoutes(ADMIN_VERSION),
      authRoutes({
        challenges: new ChallengeBook(clock),
        sessions,
        guard,
        rpc,
        db,
        log: log.child('auth'),
        clock,
        clientIp,
        limits: {
          challengePerIp: new RateLimiter(LOGIN_LIMITS.challengesPerIpPerMin, minute, clock),
          loginPerIp: new RateLimiter(LOGIN_LIMITS.loginsPerIpPerMin, minute, clock),
          loginFailuresPerIpAndAddress: new RateLimiter(LOGIN_LIMITS.loginFailuresPerIpAndAddressPerMin, minute, clock),
          failureAuditRows: new RateLimiter(LOGIN_LIMITS.failedLoginAuditRowsPerMin, minute, clock),
        },
      }),
      keyRoutes({ guard, keys, serverKey, log: log.child('keys') }),
      serviceRoutes({ guard, rpc, keys, bindings, supervisor, log: log.child('services') }),
      auditRoutes({ guard, db }),
      hedgeRoutes({
        guard,
        serverKey,
        accounts: hedgeAccounts,
        policies: hedgePolicies,
        orders: hedgeOrders,
        engine: hedge,
        rpc,
        log: log.child('hedge'),
        clock,
      }),
      withdrawalRoutes({ guard, bridge }),
      catalogRoutes({ guard, db, rpc, venue, log: log.child('catalog'), clock }),
      // Reads the composed app's routes when asked: every route above and itself.
      openApiRoutes(() => app.routes, ADMIN_VERSION),
    ],
    {
      pages: consolePages,
      // A session whose address lost the Admin role was refused: audited (docs/admin.md#audit-log).
      onDenied(err, request, server) {
        const path = new URL(request.url).pathname
        db.write((tx) =>
          appendAudit(tx, {
            atMs: clock(),
            actor: err.actor!,
            action: 'access.denied',
            target: `${request.method} ${path}`.slice(0, 200),
            detail: { ip: clientIp(server, request), reason: err.reason },
          }),
        )
      },
    },
  )
  // development: false, whatever NODE_ENV says: the console is bundled once and served minified, without hot reloading.
  try {
    app.listen({ hostname: config.host, port: config.port, development: false, ...(tls === undefined ? {} : { tls }) })
  } catch (err) {
    throw new StartRefused(cannotListenMessage(config.host, config.port, err))
  }
  const url = `${tls === undefined ? 'http' : 'https'}://${config.host}:${app.server!.port}`
  onListening(url)
  if (kek.created)
    log.info(`created the key-encryption key ${config.kekFile} (mode 0600) with the new database; back it up apart from ${config.dataDir}`)
  const chain = db.read((d) => verifyAuditChain(d))
  if (chain.ok) log.info(`audit log: ${chain.rows} rows, chain head ${chain.head}`)
  else log.error(`audit log: the hash chain is broken at row ${chain.brokenId}: ${chain.problem} (perpd-admin audit verify)`)

  // A key an earlier version let two services share starts in the first only (docs/admin.md#bindings).
  const stored = bindings.all()
  const firstUser = new Map<string, string>()
  for (const s of SERVICE_NAMES) {
    const b = stored[s]
    const first = b.key_id === null || !b.enabled ? undefined : firstUser.get(b.key_id)
    if (first !== undefined) {
      supervisor.refuse(
        s,
        `key ${b.key_id} is also bound to ${first}; a key serves one service (one nonce sequence per runner): bind another key to ${s}`,
      )
      continue
    }
    if (b.key_id !== null && b.enabled) firstUser.set(b.key_id, s)
    void supervisor.apply(s, b)
  }
  log.info(`perpd-admin ${ADMIN_VERSION}, node ${config.nodeUrl}, data ${db.path}, encryption key ${serverKey.publicKey.slice(0, 18)}…`)

  return {
    url,
    async stop() {
      await app.stop()
      await supervisor.stopAll()
      db.close()
      rmSync(pidFile, { force: true })
      lock.release()
    },
  }
}

/** The data directory's lock (the directory made as prepareDataDir makes it), or the refusal to start when another service holds it. */
function lockAdminDataDir(dataDir: string): DataDirLock {
  ensureDataDirectory(dataDir)
  try {
    return lockDataDir(dataDir, 'perpd-admin')
  } catch (err) {
    if (err instanceof DataDirInUse) throw new StartRefused(err.message)
    throw err
  }
}

/** The certificate and key of --tls-cert / --tls-key, read at start so a bad path is a clear refusal. */
function readTls(files: { certFile: string; keyFile: string }): { cert: string; key: string } {
  const read = (what: string, file: string) => {
    try {
      return readFileSync(file, 'utf8')
    } catch (err) {
      throw new StartRefused(`cannot read the TLS ${what} ${file}: ${(err as Error).message}`)
    }
  }
  return { cert: read('certificate (--tls-cert)', files.certFile), key: read('key (--tls-key)', files.keyFile) }
}

/**
 * Test only: PERPD_ADMIN_TEST_HEDGE_PAUSE_MS makes the hedger pause that long between writing an
 * order's record and sending it, so the end-to-end tests can kill the service in that window
 * (docs/admin.md#the-hedger). Logged loudly: it has no place in production.
 */
function testHedgePauseMs(log: Logger): number | undefined {
  const raw = process.env[TEST_HEDGE_PAUSE_VARIABLE]
  if (raw === undefined || raw === '') return undefined
  const ms = Number(raw)
  if (!Number.isSafeInteger(ms) || ms < 0 || ms > 600_000)
    throw new StartRefused(`${TEST_HEDGE_PAUSE_VARIABLE}=${raw.slice(0, 20)}: not 0 to 600000 ms`)
  log.warn(
    `${TEST_HEDGE_PAUSE_VARIABLE}=${ms}: the hedger pauses between recording and sending each order (a test hook; never set it in production)`,
  )
  return ms
}

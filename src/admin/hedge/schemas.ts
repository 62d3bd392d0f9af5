// The wire shapes of the hedging routes (docs/admin.md#hedging): request bodies and queries the
// routes validate with, and the records they answer with (also the OpenAPI document's replies).
// Amounts, sizes, prices and ratios are decimal strings, as on the chain.
import { type Static, type TProperties, type TSchema, Type } from '@sinclair/typebox'
import { decimalPattern } from '../../lib/decimal.ts'
import { UUID_PATTERN } from '../http/helpers.ts'
import { KEY_LABEL_MAX } from '../store/key-store.ts'

/** The hedge modes (docs/admin.md#the-hedger). */
export const HEDGE_MODES = ['follow', 'reverse'] as const
export type HedgeMode = (typeof HEDGE_MODES)[number]

/** The networks of ext_network (the Hyperliquid adapter's; kept for a perpd venue too). */
export const EXT_NETWORKS = ['mainnet', 'testnet'] as const

/** Every hedge order status (docs/admin.md#hedge-order-states). */
export const HEDGE_ORDER_STATUSES = [
  'pending',
  'sent',
  'open',
  'filled',
  'partially_filled',
  'cancelled',
  'rejected',
  'failed',
  'dry_run',
  'unknown',
] as const
export type HedgeOrderStatus = (typeof HEDGE_ORDER_STATUSES)[number]

/** Decimal places a ratio, a size or a notional may have in a request. */
export const HEDGE_DECIMALS = 8
/** Highest hedge_ratio. */
export const HEDGE_RATIO_MAX = '10'
export const INTERVAL_MS_MIN = 500
export const INTERVAL_MS_MAX = 3_600_000
export const SLIPPAGE_BPS_MAX = 2_000
/** Longest order page. */
export const HEDGE_ORDERS_PAGE_MAX = 500

const HEX_FIELD_MAX = 1_024
const Dec = (description: string, error: string) =>
  Type.String({ maxLength: 40, pattern: decimalPattern({ decimals: HEDGE_DECIMALS }), description, error })

const SymbolPattern = '^[A-Za-z0-9]{1,10}-[A-Za-z0-9]{1,9}$'
const MarketSymbol = Type.String({
  pattern: SymbolPattern,
  description: 'our market symbol, BASE-QUOTE (stored upper case)',
  error: 'market_symbol must be a market symbol BASE-QUOTE such as BTC-USD',
})

/** The ECIES payload of a key upload (docs/protocol.md#key-upload-encryption). */
export const EciesCiphertextSchema = Type.Object(
  {
    ephemeral_public_key: Type.String({ maxLength: HEX_FIELD_MAX, description: '0x-hex 65-byte uncompressed E = e·G' }),
    iv: Type.String({ maxLength: HEX_FIELD_MAX, description: '0x-hex 16-byte IV' }),
    ciphertext: Type.String({ maxLength: HEX_FIELD_MAX, description: '0x-hex AES-256-GCM ct ‖ tag of the key as 64 hex characters' }),
  },
  { additionalProperties: false, description: 'the venue private key, encrypted to GET /api/keys/encryption-key' },
)

const AccountName = Type.String({
  minLength: 1,
  maxLength: KEY_LABEL_MAX,
  format: 'key-label',
  description: 'a display name',
  error: `name must be 1 to ${KEY_LABEL_MAX} printable characters`,
})

const PublicKeyField = Type.Optional(
  Type.String({ maxLength: HEX_FIELD_MAX, description: 'the server key the payload was encrypted to; lets the service name a stale key' }),
)

/** POST /api/hedge/accounts. */
export const HedgeAccountCreateBody = Type.Object({ name: AccountName, ciphertext: EciesCiphertextSchema, public_key: PublicKeyField })

/** PUT /api/hedge/accounts/{id}: any of the fields; at least one. */
export const HedgeAccountUpdateBody = Type.Object({
  name: Type.Optional(AccountName),
  ciphertext: Type.Optional(EciesCiphertextSchema),
  enabled: Type.Optional(Type.Boolean({ description: 'takes part in ordering' })),
  public_key: PublicKeyField,
})

const OptionalOverride = (what: string) =>
  Type.Optional(Type.Union([Dec(`overrides the global ${what}`, `${what} must be a decimal string`), Type.Null()]))

/** PUT /api/hedge/policies: upsert by market_symbol. */
export const HedgePolicyBody = Type.Object({
  market_symbol: MarketSymbol,
  hedge_ratio: Dec(`0 to ${HEDGE_RATIO_MAX}`, `hedge_ratio must be a decimal string from 0 to ${HEDGE_RATIO_MAX}`),
  hedge_mode: Type.Union(
    HEDGE_MODES.map((m) => Type.Literal(m)),
    { error: `hedge_mode must be one of ${HEDGE_MODES.join(', ')}` },
  ),
  account_id: Type.Optional(Type.Union([Type.String({ pattern: UUID_PATTERN }), Type.Null()], { description: 'compatibility only' })),
  enabled: Type.Boolean(),
  threshold_notional: OptionalOverride('threshold_notional'),
  min_order_sz: OptionalOverride('min_order_sz'),
  max_order_sz: OptionalOverride('max_order_sz'),
})

/** PUT /api/hedge/config: absent fields keep their value. */
export const HedgeConfigBody = Type.Object({
  interval_ms: Type.Optional(
    Type.Integer({
      minimum: INTERVAL_MS_MIN,
      maximum: INTERVAL_MS_MAX,
      error: `interval_ms must be an integer from ${INTERVAL_MS_MIN} to ${INTERVAL_MS_MAX}`,
    }),
  ),
  threshold_notional: Type.Optional(Dec('skip a delta worth less (quote currency)', 'threshold_notional must be a decimal string')),
  min_order_sz: Type.Optional(Dec('smallest order size', 'min_order_sz must be a decimal string')),
  max_slippage_bps: Type.Optional(
    Type.Integer({ minimum: 0, maximum: SLIPPAGE_BPS_MAX, error: `max_slippage_bps must be an integer from 0 to ${SLIPPAGE_BPS_MAX}` }),
  ),
  dry_run: Type.Optional(Type.Boolean()),
  ext_network: Type.Optional(
    Type.Union(
      EXT_NETWORKS.map((n) => Type.Literal(n)),
      { error: `ext_network must be one of ${EXT_NETWORKS.join(', ')}` },
    ),
  ),
})

const Digits = (description: string) => Type.String({ pattern: '^(0|[1-9][0-9]{0,8})$', description })

/** GET /api/hedge/orders query. */
export const HedgeOrdersQuery = Type.Object({
  account_id: Type.Optional(Type.String({ pattern: UUID_PATTERN, description: 'only this account' })),
  symbol: Type.Optional(Type.String({ pattern: SymbolPattern, description: 'only this market symbol' })),
  limit: Type.Optional(Digits(`1..${HEDGE_ORDERS_PAGE_MAX}, default 50`)),
  offset: Type.Optional(Digits('rows to skip, default 0')),
})

// Replies.

const Nullable = <T extends TSchema>(s: T) => Type.Union([s, Type.Null()])
const Strict = <T extends TProperties>(props: T, description: string) => Type.Object(props, { additionalProperties: false, description })
const Decimal = (description: string) => Type.String({ description })
const Ms = (description: string) => Type.Integer({ minimum: 0, description })

export const HedgeAccountSchema = Strict(
  {
    id: Type.String({ pattern: UUID_PATTERN }),
    name: Type.String(),
    address: Type.String({ pattern: '^0x[0-9a-f]{40}$', description: 'the account on the venue (the key is never returned)' }),
    enabled: Type.Boolean(),
    created_at_ms: Ms('created'),
    updated_at_ms: Ms('last change'),
    updated_by: Type.String(),
    margin: Nullable(
      Strict(
        {
          account_value: Decimal('account value on the venue'),
          withdrawable: Decimal('withdrawable on the venue'),
          updated_at_ms: Ms('read at'),
        },
        'the margin read at the last hedger cycle',
      ),
    ),
  },
  'a hedge account',
)
export type HedgeAccount = Static<typeof HedgeAccountSchema>

export const HedgePolicySchema = Strict(
  {
    market_symbol: Type.String(),
    hedge_ratio: Decimal('hedge ratio'),
    hedge_mode: Type.Union(HEDGE_MODES.map((m) => Type.Literal(m))),
    account_id: Nullable(Type.String()),
    enabled: Type.Boolean(),
    threshold_notional: Nullable(Decimal('override')),
    min_order_sz: Nullable(Decimal('override')),
    max_order_sz: Nullable(Decimal('override')),
    updated_at_ms: Ms('last change'),
    updated_by: Type.String(),
  },
  'a hedge policy',
)
export type HedgePolicy = Static<typeof HedgePolicySchema>

export const HedgeConfigSchema = Strict(
  {
    interval_ms: Type.Integer(),
    threshold_notional: Decimal('skip a delta worth less'),
    min_order_sz: Decimal('smallest order size'),
    max_slippage_bps: Type.Integer({ description: "an order's limit price is at most this far past the venue's best price" }),
    dry_run: Type.Boolean(),
    ext_network: Type.Union(EXT_NETWORKS.map((n) => Type.Literal(n))),
    updated_at_ms: Ms('last change'),
    updated_by: Type.String(),
  },
  'the global hedge config',
)
export type HedgeConfig = Static<typeof HedgeConfigSchema>

export const HedgeOrderRecordSchema = Strict(
  {
    id: Type.Integer({ minimum: 1 }),
    account_id: Type.String(),
    market_symbol: Type.String(),
    coin: Type.String({ description: "the venue's name of the market" }),
    is_buy: Type.Boolean(),
    sz: Decimal('order size'),
    px: Decimal('limit price'),
    delta_before: Decimal('target − venue position when the order was decided (signed)'),
    ext_oid: Nullable(Type.String({ description: "the venue's order id" })),
    cloid: Type.String({ description: 'client order id, 0x + 32 hex' }),
    status: Type.Union(HEDGE_ORDER_STATUSES.map((s) => Type.Literal(s))),
    error: Nullable(Type.String()),
    filled_sz: Nullable(Decimal('size filled, once known')),
    created_at_ms: Ms('recorded'),
    updated_at_ms: Ms('last status change'),
  },
  'a hedge order record',
)
export type HedgeOrderRecord = Static<typeof HedgeOrderRecordSchema>

const BookBMarketSchema = Strict(
  {
    symbol: Type.String(),
    market_id: Type.Integer({ minimum: 0 }),
    lifecycle: Type.String(),
    emergency_halt: Type.Boolean(),
    mark_price: Decimal('mark price'),
    stats: Nullable(
      Strict(
        {
          long_size: Decimal("traders' long size"),
          short_size: Decimal("traders' short size"),
          net_size: Decimal('long − short: the exposure Book B carries (its own position negated)'),
          block_height: Type.Integer({ minimum: 0 }),
        },
        'market stats',
      ),
    ),
    detail_error: Nullable(Type.String()),
  },
  'one market',
)

export const BookBStatsSchema = Strict(
  {
    height: Type.Integer({ minimum: 0 }),
    fetched_at_ms: Ms('read at'),
    markets: Type.Array(BookBMarketSchema),
    totals: Strict({ markets_with_stats: Type.Integer({ minimum: 0 }), markets_failed: Type.Integer({ minimum: 0 }) }, 'counts'),
  },
  'Book B stats of our chain',
)
export type BookBStats = Static<typeof BookBStatsSchema>

const Ok = Strict({ ok: Type.Literal(true) }, 'done')

/** The hedging routes' replies for the OpenAPI document (http/routes-openapi.ts). */
export const HEDGE_RESPONSES: Readonly<Record<string, { summary: string; ok: TSchema; bearer: true }>> = {
  'GET /api/hedge/accounts': {
    summary: 'Hedge accounts',
    ok: Strict({ accounts: Type.Array(HedgeAccountSchema) }, 'accounts'),
    bearer: true,
  },
  'POST /api/hedge/accounts': {
    summary: 'Add a hedge account (encrypted key); seeds default policies',
    ok: Strict(
      { ok: Type.Literal(true), account: HedgeAccountSchema, seeded_policies: Type.Array(Type.String()) },
      'the account and the symbols given a default policy',
    ),
    bearer: true,
  },
  'PUT /api/hedge/accounts/:id': { summary: 'Change a hedge account', ok: Ok, bearer: true },
  'DELETE /api/hedge/accounts/:id': { summary: 'Delete a hedge account', ok: Ok, bearer: true },
  'GET /api/hedge/policies': {
    summary: 'Hedge policies',
    ok: Strict({ policies: Type.Array(HedgePolicySchema) }, 'policies'),
    bearer: true,
  },
  'PUT /api/hedge/policies': { summary: 'Upsert a hedge policy by market_symbol', ok: Ok, bearer: true },
  'DELETE /api/hedge/policies/:symbol': { summary: 'Delete a hedge policy', ok: Ok, bearer: true },
  'GET /api/hedge/config': { summary: 'The global hedge config', ok: HedgeConfigSchema, bearer: true },
  'PUT /api/hedge/config': { summary: 'Change the global hedge config', ok: Ok, bearer: true },
  'GET /api/hedge/orders': {
    summary: 'Hedge order records, newest first',
    ok: Strict(
      { orders: Type.Array(HedgeOrderRecordSchema), total: Type.Integer({ minimum: 0 }), offset: Type.Integer(), limit: Type.Integer() },
      'a page',
    ),
    bearer: true,
  },
  'POST /api/hedge/orders/reconcile': {
    summary: 'Start one reconciliation with the venue',
    ok: Strict({ ok: Type.Literal(true), triggered: Type.Literal(true) }, 'started'),
    bearer: true,
  },
  'GET /api/hedge/book-b-stats': { summary: "Book B's exposure per market on our chain", ok: BookBStatsSchema, bearer: true },
}

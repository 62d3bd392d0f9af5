// The wire shapes of the category and catalog routes (docs/admin.md#market-categories-and-catalog):
// the TypeBox schemas the routes validate requests with and the OpenAPI document shows, and the
// reply schemas the document and its test check replies against.
import { FormatRegistry, type TSchema, Type } from '@sinclair/typebox'
import { isPrintableLabel } from '../store/key-store.ts'
import {
  CATALOG_SYMBOL_PATTERN,
  CATEGORY_CODE_PATTERN,
  CATEGORY_NAME_MAX,
  CLASSIFICATIONS_PER_REQUEST_MAX,
  CODES_PER_IMPORT_MAX,
  SORT_ORDER_MAX,
  SOURCES,
  SYMBOLS_PER_REQUEST_MAX,
} from './model.ts'

// A name is printable text (the rule of key labels), so it cannot move a terminal's cursor.
FormatRegistry.Set('category-name', (s) => isPrintableLabel(s) && s.length <= CATEGORY_NAME_MAX)

const Code = (description: string) =>
  Type.String({
    pattern: CATEGORY_CODE_PATTERN,
    description,
    error: 'a category code is a letter then up to 31 letters, digits, - or _ (stored lower-case)',
  })
const SymbolField = Type.String({
  pattern: CATALOG_SYMBOL_PATTERN,
  description: 'a market symbol BASE-QUOTE, any case (stored lower-case)',
  error: 'a symbol is BASE-QUOTE: 1 to 10 letters or digits, a dash, 1 to 9 letters or digits',
})
const Name = Type.String({
  minLength: 1,
  maxLength: CATEGORY_NAME_MAX,
  format: 'category-name',
  description: 'the display name',
  error: `name must be 1 to ${CATEGORY_NAME_MAX} printable characters`,
})
const ParentId = Type.Union([Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }), Type.Null()], {
  description: 'the id of a top-level category, or null for a top-level one',
  error: 'parent_id must be a category id or null',
})
const SortOrder = Type.Integer({
  minimum: -SORT_ORDER_MAX,
  maximum: SORT_ORDER_MAX,
  description: 'smaller first, then by code',
  error: `sort_order must be an integer from -${SORT_ORDER_MAX} to ${SORT_ORDER_MAX}`,
})
const Enabled = Type.Boolean({
  description: 'false hides it (and its sub-categories) from the public views',
  error: 'enabled must be true or false',
})
const MarketId = Type.Integer({
  minimum: 0,
  maximum: 2 ** 32 - 1,
  description: "a chain market's id",
  error: 'market_id must be a market id',
})
const SourceSchema = Type.Union(
  SOURCES.map((s) => Type.Literal(s)),
  { description: 'seed: the service; manual: an admin; ext: a venue sync', error: `source must be one of ${SOURCES.join(', ')}` },
)
const Symbols = (description: string) =>
  Type.Array(SymbolField, {
    maxItems: SYMBOLS_PER_REQUEST_MAX,
    description,
    error: `at most ${SYMBOLS_PER_REQUEST_MAX} symbols, each BASE-QUOTE`,
  })
const CategoryCodes = Type.Array(Code('a category code'), {
  maxItems: 2,
  description: 'the category, or a sub-category and its parent; [] removes the classification',
  error: 'categories is a list of at most 2 category codes',
})

/** POST /api/market-categories body. */
export const CategoryCreateBody = Type.Object({
  code: Code('unique; any case, stored lower-case'),
  name: Name,
  parent_id: Type.Optional(ParentId),
  enabled: Type.Optional(Enabled),
  sort_order: Type.Optional(SortOrder),
})

/** PUT /api/market-categories/{id} body: the fields given change. */
export const CategoryUpdateBody = Type.Object(
  {
    code: Type.Optional(Code('unique; any case, stored lower-case')),
    name: Type.Optional(Name),
    parent_id: Type.Optional(ParentId),
    enabled: Type.Optional(Enabled),
    sort_order: Type.Optional(SortOrder),
  },
  { minProperties: 1 },
)

/** POST /api/market-categories/{id}/markets body. */
export const MarketsChangeBody = Type.Object(
  {
    add: Type.Optional(Symbols('symbols put in this category as manual entries (taken from any other)')),
    remove: Type.Optional(Symbols('symbols taken out of the catalog when they are in this category')),
  },
  { minProperties: 1 },
)

/** POST /api/market-categories/sync/import body. */
export const SyncImportBody = Type.Object({
  codes: Type.Array(Code('an external category code'), {
    minItems: 1,
    maxItems: CODES_PER_IMPORT_MAX,
    description: 'the external categories to import, in order',
    error: `codes is a list of 1 to ${CODES_PER_IMPORT_MAX} category codes`,
  }),
})

/** PUT /api/market-classifications/{marketId} body. */
export const ClassificationBody = Type.Object({ categories: CategoryCodes })

/** PUT /api/market-classifications body. */
export const ClassificationsBody = Type.Object({
  classifications: Type.Array(Type.Object({ market_id: MarketId, categories: CategoryCodes }), {
    minItems: 1,
    maxItems: CLASSIFICATIONS_PER_REQUEST_MAX,
    error: `classifications is a list of 1 to ${CLASSIFICATIONS_PER_REQUEST_MAX} {market_id, categories}`,
  }),
})

/** DELETE /api/market-classifications body. */
export const ClassificationsDeleteBody = Type.Object({
  market_ids: Type.Array(MarketId, {
    minItems: 1,
    maxItems: CLASSIFICATIONS_PER_REQUEST_MAX,
    error: `market_ids is a list of 1 to ${CLASSIFICATIONS_PER_REQUEST_MAX} market ids`,
  }),
})

/** GET /api/market-catalog query. */
export const CatalogQuery = Type.Object({
  source: Type.Optional(SourceSchema),
  category: Type.Optional(Code('only this category')),
  symbol: Type.Optional(SymbolField),
})

/** GET /api/public/market-catalog query. */
export const PublicCatalogQuery = Type.Object({ symbol: Type.Optional(SymbolField) })

// ---------------------------------------------------------------------------------------------
// Replies

const Strict = (props: Parameters<typeof Type.Object>[0], description?: string) =>
  Type.Object(props, description === undefined ? { additionalProperties: false } : { additionalProperties: false, description })
const Nullable = (s: TSchema) => Type.Union([s, Type.Null()])
const Id = Type.Integer({ minimum: 1 })
const StoredCode = Type.String({ pattern: '^[a-z][a-z0-9_-]{0,31}$' })
const StoredSymbol = Type.String({ pattern: '^[a-z0-9]{1,10}-[a-z0-9]{1,9}$' })
const Ms = Type.Integer({ minimum: 0 })
const Count = Type.Integer({ minimum: 0 })

const categoryFields = {
  id: Id,
  code: StoredCode,
  name: Type.String({ minLength: 1 }),
  parent_id: Nullable(Id),
  enabled: Type.Boolean(),
  source: SourceSchema,
  sort_order: Type.Integer(),
  updated_at_ms: Ms,
  updated_by: Type.String({ description: 'the admin address, or seed' }),
}

/** A category. */
export const CategoryReply = Strict(categoryFields, 'a category')
/** GET /api/market-categories. */
export const CategoryListReply = Strict({
  categories: Type.Array(Strict({ ...categoryFields, market_count: Count }, 'a category with its number of catalog entries')),
})
/** DELETE /api/market-categories/{id}. */
export const CategoryDeleteReply = Strict({ ok: Type.Literal(true), markets_deleted: Count })

const PublicLeaf = Strict({
  id: Id,
  code: StoredCode,
  name: Type.String(),
  sort_order: Type.Integer(),
  children: Type.Array(Type.Never(), { maxItems: 0 }),
})
/** GET /api/public/market-categories. */
export const PublicTreeReply = Strict({
  categories: Type.Array(
    Strict(
      { id: Id, code: StoredCode, name: Type.String(), sort_order: Type.Integer(), children: Type.Array(PublicLeaf) },
      'an enabled top-level category with its enabled sub-categories',
    ),
  ),
})
/** GET /api/public/market-catalog. */
export const PublicCatalogReply = Strict({
  markets: Type.Array(Strict({ symbol: StoredSymbol, category: StoredCode, parent: Nullable(StoredCode) })),
})
/** GET /api/market-catalog. */
export const CatalogReply = Strict({
  markets: Type.Array(
    Strict({
      symbol: StoredSymbol,
      category: StoredCode,
      category_id: Id,
      source: SourceSchema,
      updated_at_ms: Ms,
      updated_by: Type.String(),
    }),
  ),
})
/** POST /api/market-categories/{id}/markets. */
export const MarketsChangeReply = Strict({
  category: StoredCode,
  added: Type.Array(StoredSymbol),
  moved: Type.Array(Strict({ symbol: StoredSymbol, from: StoredCode })),
  removed: Type.Array(StoredSymbol),
  not_in_category: Type.Array(StoredSymbol),
})

const previewItem = {
  code: StoredCode,
  name: Type.String(),
  parent: Nullable(StoredCode),
  market_count: Count,
  protected_count: Count,
}
/** POST /api/market-categories/sync/preview. */
export const SyncPreviewReply = Strict({
  venue: Type.String(),
  new: Type.Array(Strict(previewItem)),
  overwrite: Type.Array(Strict({ ...previewItem, id: Id, current_market_count: Count })),
  keep: Type.Array(Strict({ ...previewItem, id: Id, source: SourceSchema })),
  skip: Type.Array(Strict({ code: StoredCode, reason: Type.String(), market_count: Count })),
  invalid_codes: Type.Array(Type.String()),
  invalid_symbols: Type.Array(Type.String()),
})
/** POST /api/market-categories/sync/import. */
export const SyncReportReply = Strict({
  venue: Type.String(),
  imported: Type.Array(
    Strict({
      code: StoredCode,
      id: Id,
      action: Type.Union([Type.Literal('created'), Type.Literal('overwritten'), Type.Literal('kept')]),
      parent: Nullable(StoredCode),
      markets_synced: Count,
      markets_removed: Count,
    }),
  ),
  markets_synced: Count,
  markets_removed: Count,
  kept: Type.Array(Strict({ symbol: StoredSymbol, source: SourceSchema, category: StoredCode })),
  skipped: Type.Array(Strict({ code: StoredCode, reason: Type.String() })),
  not_offered: Type.Array(StoredCode),
  invalid_symbols: Type.Array(Type.String()),
})
/** POST /api/market-categories/cleanup. */
export const CleanupReply = Strict({
  moved: Type.Array(Strict({ code: StoredCode, from: Nullable(StoredCode), to: Nullable(StoredCode) })),
  deleted: Type.Array(Strict({ code: StoredCode, id: Id, markets_deleted: Count })),
  cleaned: Type.Array(StoredSymbol),
  recreated: Type.Array(StoredCode),
})

const classificationFields = { market_id: Count, symbol: Type.String(), categories: Type.Array(StoredCode, { maxItems: 2 }) }
/** GET /api/public/market-classifications. */
export const PublicClassificationsReply = Strict({ classifications: Type.Array(Strict(classificationFields)) })
/** One market's classification, admin view. */
export const ClassificationReply = Strict({ ...classificationFields, source: Nullable(SourceSchema) }, "a market's classification")
/** GET and PUT /api/market-classifications. */
export const ClassificationsReply = Strict({ classifications: Type.Array(ClassificationReply) })
/** DELETE /api/market-classifications. */
export const ClassificationsDeleteReply = Strict({ removed: Type.Array(Count), not_classified: Type.Array(Count) })
/** DELETE /api/market-classifications/{marketId}. */
export const ClassificationDeleteReply = Strict({ ok: Type.Literal(true) })

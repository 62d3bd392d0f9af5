// Category CRUD (docs/admin.md#category-routes): a two-level tree of categories, each change written
// with its audit row in one transaction. `preipo` is never created; the canonical top-level
// categories stay top-level; a category with children is neither deleted nor put under another.
import type { Database } from 'bun:sqlite'
import { appendAudit } from '../store/audit.ts'
import type { AdminDb } from '../store/db.ts'
import { type Category, REMOVED_CATEGORY_CODES, TOP_LEVEL_CODES } from './model.ts'
import { categoryNotFound, conflict, invalidField } from './refusal.ts'
import {
  allCategories,
  categoryByCode,
  categoryById,
  childCodes,
  deleteCategory,
  insertCategory,
  marketCounts,
  updateCategory,
} from './rows.ts'

/** A category with the number of catalog entries in it, as the admin list shows it. */
export type CategoryView = Category & { readonly market_count: number }

/** POST /api/market-categories fields (validated by the route's schema; `code` in any case). */
export interface CategoryInput {
  readonly code: string
  readonly name: string
  readonly parent_id?: number | null | undefined
  readonly enabled?: boolean | undefined
  readonly sort_order?: number | undefined
}

/** PUT /api/market-categories/{id} fields: the ones given change. */
export type CategoryPatch = Partial<CategoryInput>

/** The market_categories table through the API. */
export class CategoryStore {
  constructor(
    private readonly db: AdminDb,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Every category with its market count. */
  list(): CategoryView[] {
    return this.db.read((d) => {
      const counts = marketCounts(d)
      return allCategories(d).map((c) => ({ ...c, market_count: counts.get(c.id) ?? 0 }))
    })
  }

  get(id: number): Category | undefined {
    return this.db.read((d) => categoryById(d, id))
  }

  /** Creates a manual category. */
  create(input: CategoryInput, actor: string): Category {
    const now = this.clock()
    return this.db.write((tx) => {
      const code = checkCode(tx, input.code, undefined)
      const parentId = input.parent_id ?? null
      checkParent(tx, code, parentId, undefined)
      const created = insertCategory(
        tx,
        {
          code,
          name: input.name,
          parent_id: parentId,
          enabled: input.enabled ?? true,
          source: 'manual',
          sort_order: input.sort_order ?? 0,
        },
        now,
        actor,
      )
      appendAudit(tx, { atMs: now, actor, action: 'category.create', target: String(created.id), detail: detailOf(created) })
      return created
    })
  }

  /**
   * Changes the given fields. A changed category becomes `manual` (a sync no longer overwrites
   * it), except a `seed` one, which stays `seed`.
   */
  update(id: number, patch: CategoryPatch, actor: string): Category {
    const now = this.clock()
    return this.db.write((tx) => {
      const before = categoryById(tx, id)
      if (before === undefined) throw categoryNotFound(id)
      const code = patch.code === undefined ? before.code : checkCode(tx, patch.code, id)
      const parentId = patch.parent_id === undefined ? before.parent_id : patch.parent_id
      if (parentId !== null) {
        const children = childCodes(tx, id)
        if (children.length > 0)
          throw conflict(
            'CATEGORY_HAS_CHILDREN',
            `category ${before.code} has sub-categories (${children.join(', ')}); categories have two levels, so it stays top-level`,
            { children },
          )
      }
      checkParent(tx, code, parentId, id)
      const after: Category = {
        ...before,
        code,
        name: patch.name ?? before.name,
        parent_id: parentId,
        enabled: patch.enabled ?? before.enabled,
        sort_order: patch.sort_order ?? before.sort_order,
        source: before.source === 'seed' ? 'seed' : 'manual',
        updated_at_ms: now,
        updated_by: actor,
      }
      updateCategory(tx, after)
      appendAudit(tx, {
        atMs: now,
        actor,
        action: 'category.update',
        target: String(id),
        detail: { from: detailOf(before), to: detailOf(after) },
      })
      return after
    })
  }

  /** Deletes a category without children, with its catalog entries; returns how many entries went. */
  delete(id: number, actor: string): { markets_deleted: number } {
    const now = this.clock()
    return this.db.write((tx) => {
      const c = categoryById(tx, id)
      if (c === undefined) throw categoryNotFound(id)
      const children = childCodes(tx, id)
      if (children.length > 0)
        throw conflict(
          'CATEGORY_HAS_CHILDREN',
          `category ${c.code} has sub-categories (${children.join(', ')}); delete or move them first`,
          { children },
        )
      const symbols = deleteCategory(tx, id)
      appendAudit(tx, {
        atMs: now,
        actor,
        action: 'category.delete',
        target: String(id),
        detail: { ...detailOf(c), markets_deleted: symbols.length },
      })
      return { markets_deleted: symbols.length }
    })
  }
}

/** The stored form of a requested code: not a removed one, not another category's. */
function checkCode(tx: Database, requested: string, selfId: number | undefined): string {
  const code = requested.toLowerCase()
  if (REMOVED_CATEGORY_CODES.includes(code))
    throw invalidField('code', 'CATEGORY_REMOVED', `the category ${code} was removed and is not created again`)
  const other = categoryByCode(tx, code)
  if (other !== undefined && other.id !== selfId)
    throw conflict('CATEGORY_EXISTS', `a category with code ${code} exists (id ${other.id})`, { id: other.id })
  return code
}

/** Refuses a parent that would make a third level, a loop, or a canonical category a sub-category. */
function checkParent(tx: Database, code: string, parentId: number | null, selfId: number | undefined): void {
  if (parentId === null) return
  if (TOP_LEVEL_CODES.includes(code))
    throw invalidField('parent_id', 'PARENT_INVALID', `${code} is a top-level category; its parent_id is null`)
  if (parentId === selfId) throw invalidField('parent_id', 'PARENT_INVALID', 'a category cannot be its own parent')
  const parent = categoryById(tx, parentId)
  if (parent === undefined) throw invalidField('parent_id', 'PARENT_NOT_FOUND', `no category with id ${parentId}`)
  if (parent.parent_id !== null)
    throw invalidField(
      'parent_id',
      'PARENT_NOT_TOP_LEVEL',
      `category ${parent.code} is itself a sub-category; categories have two levels, so a parent is a top-level category`,
    )
}

function detailOf(c: Category): Record<string, unknown> {
  return { code: c.code, name: c.name, parent_id: c.parent_id, enabled: c.enabled, sort_order: c.sort_order, source: c.source }
}

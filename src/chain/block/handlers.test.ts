// The handler table is typed per kind (HandlerTable), so tsc refuses what a check at load used to:
// a kind without a handler, a handler without a kind, a handler of another kind's payload. The
// type-level cases below are checked by `tsc --noEmit` (each @ts-expect-error must meet an error).
import { expect, test } from 'bun:test'
import type { ORDER_ACTIONS } from '../../wire/actions/orders.ts'
import { ACTION_KINDS } from '../../wire/actions.ts'
import { type AreaHandlers, type HandlersOf, OK } from '../core/action-context.ts'
import { HANDLERS } from './handlers.ts'

test('one handler per registered kind, and no other', () => {
  expect(Object.keys(HANDLERS).sort()).toEqual(ACTION_KINDS.map((k) => k.name).sort())
})

test('type level: tsc refuses a missing, a stray and a mistyped handler', () => {
  // @ts-expect-error PlaceOrder has no handler.
  const missing: HandlersOf<'PlaceOrder' | 'Noop'> = { Noop: () => OK }
  // @ts-expect-error PlaceOrderz is no kind.
  const stray: HandlersOf<'Noop'> = { Noop: () => OK, PlaceOrderz: () => OK }
  // @ts-expect-error a CancelOrder payload has no price.
  const mistyped: HandlersOf<'CancelOrder'> = { CancelOrder: (_ctx, p) => (p.price === '' ? OK : OK) }
  // @ts-expect-error an area's handlers are all its registry array's kinds (here only Noop of the order area's).
  const area: AreaHandlers<typeof ORDER_ACTIONS> = { Noop: () => OK }
  expect([missing, stray, mistyped, area].length).toBe(4)
})

// An account's reserved margin (the sum of marginHeld over its resting orders), kept in two parts.
//
// Every order that rests adds its margin and every order that leaves takes it out again, so the sum
// changes on the hottest paths of the chain. As one bigint, every change was a bigint addition: a
// runtime call (bigint arithmetic is never inlined here, whatever the size) that allocates the new
// sum. The sum is kept instead as a number that takes each change while both the change and the
// new sum are safe integers (below 2^53 in magnitude, where double arithmetic on integers is exact:
// see math.ts), and a bigint that takes any change the number cannot. Orders carry their margin as
// such a number too (Order.marginHeldUnits), so resting and cancelling read no bigint at all. The
// value is always `overflow + units`, exactly; the split depends only on the sequence of changes,
// so a replay and a restored snapshot reach the same one.
import type { Account } from './types.ts'

const MAX_SAFE = Number.MAX_SAFE_INTEGER

/** The account's reserved margin (SCALE_6). */
export function reservedMarginOf(account: Account): bigint {
  return account.reservedMarginOverflow === 0n ? BigInt(account.reservedMarginUnits) : account.reservedMarginOverflow + BigInt(account.reservedMarginUnits)
}

/** The account's reserved margin as an exact number, or NaN when it is not a safe integer. */
export function reservedMarginNumber(account: Account): number {
  const overflow = account.reservedMarginOverflow
  if (overflow === 0n) return account.reservedMarginUnits
  // Number(overflow) rounds only beyond 2^53, and then the first check fails.
  const big = Number(overflow)
  const total = big + account.reservedMarginUnits
  return big <= MAX_SAFE && big >= -MAX_SAFE && total <= MAX_SAFE && total >= -MAX_SAFE ? total : NaN
}

/**
 * Adds an amount to the account's reserved margin. `units` is the amount as an exact number, or NaN
 * when it is not a safe integer (Order.marginHeldUnits): the bigint itself is read only then.
 */
export function reserveMargin(account: Account, amount: bigint, units: number): void {
  const sum = account.reservedMarginUnits + units
  // NaN fails both comparisons: an amount that is no safe integer goes to the bigint part.
  if (sum <= MAX_SAFE && sum >= -MAX_SAFE) account.reservedMarginUnits = sum
  else account.reservedMarginOverflow += amount
}

/** Takes an amount out of the account's reserved margin; `units` as reserveMargin (no bigint is
 * negated: every bigint operation is a runtime call). */
export function releaseMargin(account: Account, amount: bigint, units: number): void {
  const rest = account.reservedMarginUnits - units
  if (rest <= MAX_SAFE && rest >= -MAX_SAFE) account.reservedMarginUnits = rest
  else account.reservedMarginOverflow -= amount
}

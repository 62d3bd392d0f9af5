// An account's reserved margin (the sum of marginHeld over its resting orders), kept in two parts.
//
// Every order that rests adds its margin and every order that leaves takes it out again, so the sum
// changes on the hottest paths of the chain. As one bigint, every change was a bigint addition: a
// runtime call (at any size) that allocates the new sum. The sum is kept instead as a number that
// takes each change while both the change and the new sum are safe integers (below 2^53 in
// magnitude, where double arithmetic on integers is exact: see math.ts), and a bigint that takes
// any change the number cannot. Orders carry their margin as such a number too
// (Order.marginHeldUnits), so resting and cancelling read no bigint at all. The value is always
// `overflow + units`, exactly; the split depends only on the sequence of changes, so a replay and
// a restored snapshot reach the same one.
// Measured: engine bench, full mix, 200k-op blocks, alternated 0.912/0.849/0.806/0.901 -> 0.985/0.930/0.852/0.935M ops/s.
import { isSafe } from '../core/math.ts'
import type { Account } from '../core/types.ts'

/** The account's reserved margin (SCALE_6). */
export function reservedMarginOf(account: Account): bigint {
  return account.reservedMarginOverflow === 0n
    ? BigInt(account.reservedMarginUnits)
    : account.reservedMarginOverflow + BigInt(account.reservedMarginUnits)
}

/** The account's reserved margin as an exact number, or NaN when it is not a safe integer. */
export function reservedMarginNumber(account: Account): number {
  const overflow = account.reservedMarginOverflow
  if (overflow === 0n) return account.reservedMarginUnits
  // Number(overflow) rounds only beyond 2^53, and then the first check fails.
  const big = Number(overflow)
  const total = big + account.reservedMarginUnits
  return isSafe(big) && isSafe(total) ? total : NaN
}

/**
 * Adds an amount to the account's reserved margin. `units` is the amount as an exact number, or NaN
 * when it is not a safe integer (Order.marginHeldUnits): the bigint itself is read only then.
 */
export function reserveMargin(account: Account, amount: bigint, units: number): void {
  const sum = account.reservedMarginUnits + units
  // A NaN amount (no safe integer) makes the sum NaN, which is not safe: it goes to the bigint part.
  if (isSafe(sum)) account.reservedMarginUnits = sum
  else account.reservedMarginOverflow += amount
}

/** Takes an amount out of the account's reserved margin; `units` as reserveMargin (no bigint is
 * negated: a bigint negation measured 16 ns, a subtraction 11 ns). */
export function releaseMargin(account: Account, amount: bigint, units: number): void {
  const rest = account.reservedMarginUnits - units
  if (isSafe(rest)) account.reservedMarginUnits = rest
  else account.reservedMarginOverflow -= amount
}

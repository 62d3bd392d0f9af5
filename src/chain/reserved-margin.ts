// An account's reserved margin (the sum of marginHeld over its resting orders), kept in two parts.
//
// Every order that rests adds its margin and every order that leaves takes it out again, so the sum
// changes on the hottest paths of the chain. As one bigint, every change was a bigint addition: a
// runtime call (bigint arithmetic is never inlined here, whatever the size) that allocates the new
// sum. The sum is kept instead as a number that takes each change while both the change and the
// new sum are safe integers (below 2^53 in magnitude, where double arithmetic on integers is exact:
// see math.ts), and a bigint that takes any change the number cannot. The value is always `overflow + units`, exactly; the split itself depends only on the
// sequence of changes, so a replay and a restored snapshot reach the same one.
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
  const total = Number(overflow) + account.reservedMarginUnits
  // Number(overflow) rounds only beyond 2^53, and then the check fails too.
  return Number(overflow) <= MAX_SAFE && Number(overflow) >= -MAX_SAFE && total <= MAX_SAFE && total >= -MAX_SAFE ? total : NaN
}

/** Adds an amount to the account's reserved margin. */
export function reserveMargin(account: Account, amount: bigint): void {
  const n = Number(amount)
  const sum = account.reservedMarginUnits + n
  // Exact when the amount is a safe integer (Number(amount) is then the amount itself) and so is the sum.
  if (n <= MAX_SAFE && n >= -MAX_SAFE && sum <= MAX_SAFE && sum >= -MAX_SAFE) account.reservedMarginUnits = sum
  else account.reservedMarginOverflow += amount
}

/** Takes an amount out of the account's reserved margin (reserveMargin of its negation, without
 * negating a bigint: every bigint operation is a runtime call). */
export function releaseMargin(account: Account, amount: bigint): void {
  const n = Number(amount)
  const rest = account.reservedMarginUnits - n
  if (n <= MAX_SAFE && n >= -MAX_SAFE && rest <= MAX_SAFE && rest >= -MAX_SAFE) account.reservedMarginUnits = rest
  else account.reservedMarginOverflow -= amount
}

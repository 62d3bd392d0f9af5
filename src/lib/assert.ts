/**
 * Invariant checks. A failed assertion is a bug in this program, never a user error: callers must
 * validate untrusted input with ordinary checks and reserve `assert` for "cannot happen" states.
 */

/** Thrown when an internal invariant does not hold; always indicates a bug. */
export class AssertionError extends Error {
  override readonly name = 'AssertionError'
}

/** Throws an {@link AssertionError} with `message` unless `cond` is truthy. */
export function assert(cond: unknown, message: string): asserts cond {
  if (!cond) throw new AssertionError(message)
}

// Noop: the envelope consumes its nonce (apply.ts does that for every envelope) and nothing else
// happens, so a client can invalidate an action it signed with that nonce but wants withdrawn.
import { OK, type Outcome } from '../core/action-context.ts'

/** Accepts and changes nothing; it emits no event. */
export const noop = (): Outcome => OK

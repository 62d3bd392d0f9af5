// The hedge accounts as venue accounts: each stored key opened once and kept (a perpd venue
// account keeps its nonces and the markets of its cloids; a new object per cycle would lose both).
// An account whose key changed (a new address) or that was deleted is dropped and reopened.
import { bytesToHex } from '../../lib/hex.ts'
import type { Venue, VenueAccount } from '../venues/venue.ts'
import type { HedgeAccountStore } from './account-store.ts'
import type { HedgeAccount } from './schemas.ts'

export class VenueAccounts {
  private readonly open = new Map<string, VenueAccount>()

  constructor(
    private readonly venue: Venue,
    private readonly store: HedgeAccountStore,
  ) {}

  /** The venue account of a stored account; throws when its key does not open. */
  of(account: HedgeAccount): VenueAccount {
    const known = this.open.get(account.id)
    if (known !== undefined && known.address === account.address) return known
    const key = this.store.openPrivateKey(account.id)
    if (key === undefined) throw new Error(`hedge account ${account.id} no longer exists`)
    try {
      // The adapters take the key as hex; the bytes are zeroed here, the string lives in the adapter's signer.
      const opened = this.venue.account(bytesToHex(key))
      this.open.set(account.id, opened)
      return opened
    } finally {
      key.fill(0)
    }
  }

  /** Forgets accounts that are no longer stored. */
  retain(accounts: readonly HedgeAccount[]): void {
    const ids = new Set(accounts.map((a) => a.id))
    for (const id of this.open.keys()) if (!ids.has(id)) this.open.delete(id)
  }
}

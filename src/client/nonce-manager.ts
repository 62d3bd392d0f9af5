// Per-signer nonces (PROTOCOL §5): start at getAccount.nonce, hand out increasing nonces, resync
// after a NONCE_REPLAY. A refused action does not consume its nonce, so it is handed out again.
import type { RpcClient } from './rpc-client.ts'

export class NonceManager {
  private next: number | undefined
  private readonly returned: number[] = []

  constructor(private readonly rpc: RpcClient, readonly address: string) {}

  /** The next nonce to use. */
  async take(): Promise<number> {
    if (this.returned.length > 0) return this.returned.shift()!
    if (this.next === undefined) await this.resync()
    return this.next!++
  }

  /** Gives back a nonce whose action was refused at admission (it was not consumed). */
  giveBack(nonce: number): void {
    this.returned.push(nonce)
    this.returned.sort((a, b) => a - b)
  }

  /** Re-reads the lowest unused nonce from the node. */
  async resync(): Promise<void> {
    const r = await this.rpc.query<{ nonce: number }>('getAccount', { address: this.address })
    this.next = r.data.nonce
    this.returned.length = 0
  }
}

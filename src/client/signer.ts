// A signer: a private key that signs actions with the L1 and user-signed schemes
// (docs/protocol.md#l1-actions, docs/protocol.md#user-signed-actions).

import { hexToBytes } from '../lib/hex.ts'
import { ACTION_KIND_BY_NAME } from '../wire/actions.ts'
import {
  addressOfPrivateKey,
  eip191Digest,
  l1Digest,
  signDigest,
  sourceForNetwork,
  txHash,
  userSignedDigest,
  type WireSignature,
} from '../wire/signing.ts'

export interface SignedAction {
  readonly params: { action: Record<string, unknown>; nonce: number; signature: WireSignature }
  /** The tx hash the node will report, known before sending (docs/protocol.md#transaction-hash). */
  readonly txHash: string
}

export class Signer {
  readonly address: string
  private readonly key: Uint8Array
  private disposed = false

  /**
   * A private key as hex, or as its 32 bytes. Bytes are taken over, not copied: the signer owns
   * them from then on and zeroes them in dispose(), so a key never has to exist as a string.
   */
  constructor(privateKey: string | Uint8Array) {
    this.key = typeof privateKey === 'string' ? hexToBytes(privateKey) : privateKey
    this.address = addressOfPrivateKey(this.key)
  }

  /** Zeroes the key; the signer cannot sign afterwards. */
  dispose(): void {
    this.key.fill(0)
    this.disposed = true
  }

  /** Signs an action for a network; user-signed kinds use their EIP-712 type, the rest L1. */
  sign(action: Record<string, unknown>, nonce: number, network: string): SignedAction {
    if (this.disposed) throw new Error(`the signer of ${this.address} was disposed`)
    const kindName = Object.keys(action)[0]!
    const kind = ACTION_KIND_BY_NAME.get(kindName)
    const payload = action[kindName] as Record<string, unknown>
    const digest =
      kind?.auth === 'user_signed_master'
        ? userSignedDigest(kindName, kind.typedFields ?? [], payload, BigInt(String(payload.signature_chain_id)))
        : l1Digest(action, nonce, sourceForNetwork(network))
    const signature = signDigest(this.key, digest)
    return {
      params: { action, nonce, signature },
      txHash: txHash(digest, BigInt(signature.r), BigInt(signature.s), signature.v as 27 | 28),
    }
  }

  /**
   * EIP-191 personal_sign over raw bytes, as a wallet signs a message: 0x + r ‖ s ‖ v (65 bytes,
   * v 27/28). The admin service signs its treasury requests with it (docs/admin.md#treasury-interface).
   */
  personalSign(message: Uint8Array): string {
    if (this.disposed) throw new Error(`the signer of ${this.address} was disposed`)
    const sig = signDigest(this.key, eip191Digest(message))
    return `${sig.r}${sig.s.slice(2)}${sig.v.toString(16).padStart(2, '0')}`
  }
}

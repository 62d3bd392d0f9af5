// Login with an injected EIP-1193 wallet (window.ethereum): the account from eth_requestAccounts, a
// personal_sign over the 28 login bytes of the service's challenge (docs/protocol.md#admin-login-signature,
// built by the same function the service checks with), then POST /api/auth/login.
import { bytesToHex } from '../../lib/hex.ts'
import { adminLoginMessage } from '../../wire/admin-login.ts'
import { apiCall } from './api.ts'
import type { ConsoleSession } from './session.ts'

/** The part of EIP-1193 the console uses. */
export interface Eip1193Provider {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>
}

declare global {
  interface Window {
    ethereum?: Eip1193Provider
  }
}

/** A wallet that is missing or declined: shown as is. */
export class WalletError extends Error {
  override readonly name = 'WalletError'
}

/** EIP-1193's "user rejected the request". */
const USER_REJECTED = 4001

async function walletRequest(wallet: Eip1193Provider, method: string, params?: unknown[]): Promise<unknown> {
  try {
    return await wallet.request(params === undefined ? { method } : { method, params })
  } catch (err) {
    const e = err as { code?: unknown; message?: unknown }
    if (e.code === USER_REJECTED) throw new WalletError(`The wallet declined ${method}; nothing was signed.`)
    throw new WalletError(`The wallet failed on ${method}: ${typeof e.message === 'string' ? e.message : String(err)}`)
  }
}

/** Logs in with the wallet's first account; throws WalletError or ApiError. */
export async function walletLogin(wallet: Eip1193Provider | undefined): Promise<ConsoleSession> {
  if (wallet === undefined)
    throw new WalletError('No wallet found: open the console in a browser with an EVM wallet extension (window.ethereum).')
  const accounts = await walletRequest(wallet, 'eth_requestAccounts')
  const address = Array.isArray(accounts) ? accounts[0] : undefined
  if (typeof address !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(address)) throw new WalletError('The wallet returned no account.')
  const challenge = await apiCall<{ challenge: string; timestamp_ms: number }>('GET', '/api/auth/challenge')
  const message = adminLoginMessage(challenge.challenge, challenge.timestamp_ms)
  const signature = await walletRequest(wallet, 'personal_sign', [bytesToHex(message), address])
  if (typeof signature !== 'string') throw new WalletError('The wallet returned no signature.')
  const session = await apiCall<{ token: string; expires_at_secs: number }>('POST', '/api/auth/login', {
    body: { address, timestamp_ms: challenge.timestamp_ms, signature },
  })
  return { token: session.token, address: address.toLowerCase(), expiresAtSecs: session.expires_at_secs }
}

// Asks the chain (over its public JSON-RPC, with the project's client) which roles an address holds.
import { RpcCallError, type RpcClient } from '../../client/rpc-client.ts'
import { errorMessage } from '../../lib/log.ts'

/** The chain node's JSON-RPC interface did not answer usably: 503. */
export class ChainUnavailableError extends Error {
  override readonly name = 'ChainUnavailableError'
}

/** The role names of an address on chain; throws ChainUnavailableError when the node cannot say. */
export async function chainRoles(rpc: RpcClient, address: string): Promise<string[]> {
  let data: { roles?: unknown }
  try {
    data = (await rpc.query<{ roles?: unknown }>('getAccount', { address })).data
  } catch (err) {
    // A JSON-RPC error for a well-formed address, like a refused connection or a timeout, means
    // the chain cannot answer the question, which is not the same as "no".
    const what = err instanceof RpcCallError ? err.message : errorMessage(err)
    throw new ChainUnavailableError(`getAccount ${address} at ${rpc.baseUrl}: ${what}`)
  }
  if (!Array.isArray(data?.roles)) throw new ChainUnavailableError(`getAccount ${address}: the reply has no roles list`)
  return data.roles.filter((r): r is string => typeof r === 'string')
}

/** Whether an address holds the on-chain Admin role. */
export async function isChainAdmin(rpc: RpcClient, address: string): Promise<boolean> {
  return (await chainRoles(rpc, address)).includes('Admin')
}

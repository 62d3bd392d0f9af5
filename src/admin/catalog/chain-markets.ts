// The chain's markets (market_id and symbol, from getMarkets over the node's JSON-RPC), which the
// legacy classification routes match against the catalog. Read at most once per CHAIN_MARKETS_TTL_MS
// and shared by concurrent requests, so the public route costs the node one read per interval
// however often it is asked.
import type { RpcClient } from '../../client/rpc-client.ts'
import { errorMessage } from '../../lib/log.ts'
import { ChainUnavailableError } from '../auth/chain-roles.ts'

/** How long a read of the chain's markets is reused. */
export const CHAIN_MARKETS_TTL_MS = 2_000

/** A market listed on chain (not Delisted). */
export interface ChainMarket {
  readonly market_id: number
  readonly symbol: string
}

/** The chain's markets, cached for CHAIN_MARKETS_TTL_MS. */
export class ChainMarkets {
  private cached: { atMs: number; markets: readonly ChainMarket[] } | undefined
  private inFlight: Promise<readonly ChainMarket[]> | undefined

  constructor(
    private readonly rpc: RpcClient,
    private readonly clock: () => number = Date.now,
  ) {}

  /** The markets; throws ChainUnavailableError (503) when the node cannot say. */
  async list(): Promise<readonly ChainMarket[]> {
    const c = this.cached
    if (c !== undefined && this.clock() - c.atMs < CHAIN_MARKETS_TTL_MS) return c.markets
    this.inFlight ??= this.read().finally(() => {
      this.inFlight = undefined
    })
    return this.inFlight
  }

  private async read(): Promise<readonly ChainMarket[]> {
    let data: unknown
    try {
      data = (await this.rpc.query('getMarkets')).data
    } catch (err) {
      throw new ChainUnavailableError(`getMarkets at ${this.rpc.baseUrl}: ${errorMessage(err)}`)
    }
    if (!Array.isArray(data)) throw new ChainUnavailableError('getMarkets: the reply is not a list')
    const markets: ChainMarket[] = []
    for (const m of data as { market_id?: unknown; symbol?: unknown }[]) {
      if (!Number.isSafeInteger(m?.market_id) || typeof m?.symbol !== 'string')
        throw new ChainUnavailableError('getMarkets: a market without market_id or symbol')
      markets.push({ market_id: m.market_id as number, symbol: m.symbol })
    }
    this.cached = { atMs: this.clock(), markets }
    return markets
  }
}

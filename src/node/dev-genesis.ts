// The development network (docs/protocol.md#development-network): network `dev`, the Anvil/Hardhat
// account #0 as Admin, the first ten development accounts with 1,000,000 USD each, three native
// markets and one external-peg market.
import { BOOK_B_ADDRESS } from '../chain/index.ts'
import type { Genesis } from '../wire/genesis.ts'

/** Addresses of the standard `test test ... junk` mnemonic, accounts #0..#9. */
export const DEV_ADDRESSES = [
  '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
  '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
  '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc',
  '0x90f79bf6eb2c4f870365e785982e1f101e93b906',
  '0x15d34aaf54267db7d7c367839aaf71a00a2c6a65',
  '0x9965507d1a55bcc2695c58ba16fb37d819b0a4dc',
  '0x976ea74026e726554db657fa54763abd0c3a0aa9',
  '0x14dc79964da2c08b23698b3d3cc7ca32193d9955',
  '0x23618e81e3f5cdf7f54c3d65f7fbc0abf5b21e8f',
  '0xa0ee7a142d267c1f36714e4a8f75612f20a79720',
] as const

export const DEV_ADMIN = DEV_ADDRESSES[0]

/** Development account #8 also holds the bridge roles (CreditDeposit, SettleWithdrawal, RefundWithdrawal), for the admin service's bridge runners. */
export const DEV_BRIDGE_INDEX = 8
export const DEV_BRIDGE = DEV_ADDRESSES[DEV_BRIDGE_INDEX]

/** Development account #7 also holds the Quoter role, for the admin service's oracle runner. */
export const DEV_QUOTER_INDEX = 7
export const DEV_QUOTER = DEV_ADDRESSES[DEV_QUOTER_INDEX]

/** Development account #9 also holds the Liquidator role, for the admin service's liquidator runner. */
export const DEV_LIQUIDATOR_INDEX = 9
export const DEV_LIQUIDATOR = DEV_ADDRESSES[DEV_LIQUIDATOR_INDEX]

/** Book B, the exchange's counterparty on external-peg markets, starts with this capital (USD). */
export const DEV_BOOK_B_BALANCE = '10000000'

export function devGenesis(): Genesis {
  const market = (
    m: Omit<Genesis['markets'][number], 'fee_recipient' | 'lifecycle' | 'max_fills_per_quote' | 'maker_fee_bps' | 'taker_fee_bps'> &
      Partial<Genesis['markets'][number]>,
  ) => ({
    maker_fee_bps: 2,
    taker_fee_bps: 5,
    fee_recipient: DEV_ADMIN,
    lifecycle: 'Active' as const,
    max_fills_per_quote: 16,
    ...m,
  })
  return {
    network: 'dev',
    genesis_time_ms: 1_767_225_600_000,
    max_tx_per_block: 2_000,
    global_rebate_ratio_bps: 1_000,
    accounts: DEV_ADDRESSES.map((address: string, i) => ({
      address,
      balance: '1000000',
      roles:
        i === 0
          ? ['Admin', 'Trader']
          : i === DEV_BRIDGE_INDEX
            ? ['Trader', 'BridgeDeposit', 'BridgeWithdraw']
            : i === DEV_QUOTER_INDEX
              ? ['Trader', 'Quoter']
              : i === DEV_LIQUIDATOR_INDEX
                ? ['Trader', 'Liquidator']
                : ['Trader'],
    })).concat([{ address: BOOK_B_ADDRESS, balance: DEV_BOOK_B_BALANCE, roles: [] }]),
    markets: [
      market({
        market_id: 1,
        symbol: 'BTC-USD',
        price_decimals: 1,
        size_decimals: 4,
        max_leverage: 50,
        maintenance_margin_bps: 100,
        min_order_qty: '0.0001',
        mark_price: '65000',
        routing: 'native',
      }),
      market({
        market_id: 2,
        symbol: 'ETH-USD',
        price_decimals: 2,
        size_decimals: 3,
        max_leverage: 50,
        maintenance_margin_bps: 100,
        min_order_qty: '0.001',
        mark_price: '3500',
        routing: 'native',
      }),
      market({
        market_id: 3,
        symbol: 'SOL-USD',
        price_decimals: 3,
        size_decimals: 2,
        max_leverage: 20,
        maintenance_margin_bps: 250,
        min_order_qty: '0.01',
        mark_price: '150',
        routing: 'native',
      }),
      market({
        market_id: 4,
        symbol: 'XAU-USD',
        price_decimals: 2,
        size_decimals: 3,
        max_leverage: 20,
        maintenance_margin_bps: 250,
        min_order_qty: '0.001',
        mark_price: '2400',
        routing: 'external_peg',
        maker_fee_bps: 0,
        taker_fee_bps: 3,
        max_quote_lag_ms: 10_000,
        min_quote_interval_ms: 100,
        max_quote_change_bps: 500,
        min_quote_price: '100',
        max_quote_price: '100000',
        max_quote_spread_bps: 200,
      }),
    ],
  }
}

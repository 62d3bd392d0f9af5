// End to end on a real node: an Isolated 50x BTC position, its margin and liquidation price in
// getAccount; trades between two other accounts push the mark below its liquidation price; the
// position shows up in getLiquidatablePositions; the dev Liquidator (#9) liquidates it at the mark,
// the insurance fund (the dev admin) takes it over, the penalty is split exactly.
import { describe, expect, test } from 'bun:test'
import { liquidatePosition, placeOrder, updateIsolatedMargin, updateLeverage, updateMarginMode } from '../../src/client/actions.ts'
import { accepted, getAccount, startDevNodeForFile } from '../support/dev-node.ts'

const BTC = 1

const { rpc, client } = await startDevNodeForFile({ blockTimeMs: 40 })
const admin = client(0)
const alice = client(1)
const bob = client(2)
const carol = client(3)
const dave = client(4)
const liquidator = client(9)

interface PositionData {
  size: string
  margin_mode: string
  leverage: number
  isolated_margin: string
  margin_used: string
  unrealized_pnl: string
  mark_price: string
  liquidation_price: string | null
  roe: string
}
interface AccountData {
  balance: string
  account_value: string
  cross_cash_available: string
  cross_trading_available: string
  total_margin_used: string
  positions: Record<string, PositionData>
  margin_settings: Record<string, { leverage: number; margin_mode: string }>
  roles: string[]
}
const account = (address: string) => getAccount<AccountData>(rpc, address)

interface Liquidatable {
  address: string
  market_id: number
  symbol: string
  margin_mode: string
  size: string
  mark_price: string
  equity: string
  maintenance: string
  liquidation_price: string | null
}

describe('margin modes and liquidation on a real node', () => {
  test('the four kinds are registered with their auth channel and role; #9 is a Liquidator', async () => {
    const meta = (await rpc.query<{ actions: { name: string; auth: string; role: string | null }[] }>('getActionsMeta')).data.actions
    const byName = new Map(meta.map((a) => [a.name, a]))
    expect(byName.get('UpdateLeverage')).toMatchObject({ auth: 'master_or_agent_with_role', role: 'Trader' })
    expect(byName.get('UpdateMarginMode')).toMatchObject({ auth: 'master_or_agent_with_role', role: 'Trader' })
    expect(byName.get('UpdateIsolatedMargin')).toMatchObject({ auth: 'master_or_agent_with_role', role: 'Trader' })
    expect(byName.get('LiquidatePosition')).toMatchObject({ auth: 'master_or_agent_with_role', role: 'Liquidator' })
    expect((await account(liquidator.address)).roles).toContain('Liquidator')
  })

  test("an Isolated 50x long is pushed under water by other accounts' trades and liquidated at the mark", async () => {
    accepted(await alice.send(updateMarginMode({ market_id: BTC, mode: 'Isolated' })))
    const bad = await alice.send(updateLeverage({ market_id: BTC, leverage: 51 }))
    expect(bad.status === 'kept-reject' && bad.reason.code).toBe('InvalidLeverage')
    accepted(await alice.send(updateLeverage({ market_id: BTC, leverage: 50 })))
    expect((await account(alice.address)).margin_settings[String(BTC)]).toEqual({ leverage: 50, margin_mode: 'Isolated' })

    // 1 BTC at 65000, 50x: 1300 moves into the position; taker fee 5 bps = 32.5.
    accepted(await bob.send(placeOrder({ market_id: BTC, side: 'Ask', price: '65000', qty: '1', tif: 'Gtc', reduce_only: false })))
    const fill = accepted(
      await alice.send(placeOrder({ market_id: BTC, side: 'Bid', price: '65000', qty: '1', tif: 'Ioc', reduce_only: false })),
    )
    expect(fill.events.map((e) => e.sub_kind)).toEqual(['OrderAccepted', 'Filled', 'OrderDone', 'OrderDone'])
    let a = await account(alice.address)
    expect(a.balance).toBe(String(1_000_000 - 1300 - 32.5))
    expect(a.positions[String(BTC)]).toMatchObject({
      size: '1',
      margin_mode: 'Isolated',
      leverage: 50,
      isolated_margin: '1300',
      margin_used: '1300',
      // (65000 - 1300) / (1 - 1%) = 64343.43..., rounded down for a long.
      liquidation_price: '64343.4',
    })
    expect(a.account_value).toBe(String(1_000_000 - 32.5))
    // Add 100, take it back: the transfer moves cross cash and back.
    accepted(await alice.send(updateIsolatedMargin({ market_id: BTC, amount: '100', direction: 'Add' })))
    expect((await account(alice.address)).positions[String(BTC)]!.isolated_margin).toBe('1400')
    accepted(await alice.send(updateIsolatedMargin({ market_id: BTC, amount: '100', direction: 'Remove' })))
    expect((await rpc.query<Liquidatable[]>('getLiquidatablePositions', { symbol: 'BTC' })).data).toEqual([])

    // Carol and Dave trade at 64000; the book is empty after, so the mark is the trade price.
    accepted(await carol.send(placeOrder({ market_id: BTC, side: 'Ask', price: '64000', qty: '0.01', tif: 'Gtc', reduce_only: false })))
    accepted(await dave.send(placeOrder({ market_id: BTC, side: 'Bid', price: '64000', qty: '0.01', tif: 'Ioc', reduce_only: false })))
    a = await account(alice.address)
    expect(a.positions[String(BTC)]).toMatchObject({ mark_price: '64000', unrealized_pnl: '-1000' })

    const listed = (await rpc.query<Liquidatable[]>('getLiquidatablePositions', { market_id: BTC })).data
    // Equity 1300 - 1000 = 300 < maintenance 1% of 64000 = 640.
    expect(listed).toEqual([
      expect.objectContaining({
        address: alice.address.toLowerCase(),
        market_id: BTC,
        symbol: 'BTC-USD',
        margin_mode: 'Isolated',
        size: '1',
        mark_price: '64000',
        equity: '300',
        maintenance: '640',
        liquidation_price: '64343.4',
      }),
    ])

    const fund = await account(admin.address)
    const liq = await account(liquidator.address)
    const r = accepted(await liquidator.send(liquidatePosition({ address: alice.address, market_id: BTC })))
    const ev = r.events.find((e) => e.sub_kind === 'PositionLiquidated')!
    expect(ev.kind).toBe('Liquidation')
    // Penalty 50 bps of 64000 = 320, capped at the 300 the position still holds; 20% to the liquidator.
    expect(ev.body).toMatchObject({
      account: alice.address.toLowerCase(),
      liquidator: liquidator.address.toLowerCase(),
      insurance_fund: admin.address.toLowerCase(),
      margin_mode: 'Isolated',
      size: '1',
      price: '64000',
      notional: '64000',
      realized_pnl: '-1000',
      penalty: '300',
      liquidator_reward: '60',
      bad_debt: '0',
      fund_size_before: '0',
      fund_size_after: '1',
    })
    a = await account(alice.address)
    expect(a.positions).toEqual({})
    expect(a.balance).toBe(String(1_000_000 - 1300 - 32.5 + 300 - 300))
    expect(Number((await account(liquidator.address)).balance) - Number(liq.balance)).toBe(60)
    const fundAfter = await account(admin.address)
    expect(Number(fundAfter.balance) - Number(fund.balance)).toBe(240)
    expect(fundAfter.positions[String(BTC)]).toMatchObject({ size: '1', margin_mode: 'Cross' })
    expect((await rpc.query<Liquidatable[]>('getLiquidatablePositions', {})).data).toEqual([])

    // Nothing left to liquidate.
    const again = await liquidator.send(liquidatePosition({ address: alice.address, market_id: BTC }))
    expect(again.status === 'kept-reject' && again.reason.code).toBe('NoOpenPosition')
  }, 30_000)
})

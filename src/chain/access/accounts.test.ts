// Nonce windows, agents and auth channels, through applyBlock where the chain sees them.
import { describe, expect, test } from 'bun:test'
import {
  ADMIN,
  ALICE,
  agentAddress,
  BOB,
  BTC,
  createMarket,
  ev,
  genesisState,
  place,
  registerAgent,
  runRows,
  TestChain,
} from '../../../test/support/chain/test-chain.ts'
import { AssertionError } from '../../lib/assert.ts'
import { LIMITS } from '../core/types.ts'
import { lowestUnusedNonce, nonceUsable, useNonce } from './accounts.ts'

const W = LIMITS.nonceWindow

describe('nonce window', () => {
  test('in order, out of order inside the window, and the floor advancing over used nonces', () => {
    const state = genesisState()
    const rows: [op: 'use' | 'usable?', nonce: number, expected: boolean | null, floorAfter: number][] = [
      ['usable?', 0, true, 0],
      ['use', 0, null, 1],
      ['use', 1, null, 2],
      ['use', 2, null, 3],
      ['usable?', 2, false, 3], // replay below the floor
      ['use', 5, null, 3], // out of order: the floor waits for 3 and 4
      ['usable?', 5, false, 3], // replay above the floor
      ['use', 3, null, 4],
      ['use', 4, null, 6], // fills the gap: the floor jumps over 5
      ['usable?', 6 + W - 1, true, 6], // the last nonce of [floor, floor + window)
      ['usable?', 6 + W, false, 6], // outside the window
      ['use', 6 + W - 1, null, 6],
      ['usable?', 6 + W, false, 6], // the window is anchored at the floor, not at the highest nonce
    ]
    rows.forEach(([op, nonce, expected, floorAfter], i) => {
      if (op === 'use') useNonce(state, ALICE, nonce)
      else expect({ row: i, usable: nonceUsable(state, ALICE, nonce) }).toEqual({ row: i, usable: expected! })
      expect({ row: i, floor: lowestUnusedNonce(state, ALICE) }).toEqual({ row: i, floor: floorAfter })
    })
    expect([...state.nonces.get(ALICE)!.used]).toEqual([6 + W - 1])
    // Nonces are per signer.
    expect(nonceUsable(state, BOB, 0)).toBe(true)
  })

  test('every nonce of a full window used at once moves the floor by the window', () => {
    const state = genesisState()
    for (let n = W - 1; n >= 0; n--) useNonce(state, BOB, n)
    expect(lowestUnusedNonce(state, BOB)).toBe(W)
    expect(state.nonces.get(BOB)!.used.size).toBe(0)
  })

  test('through applyBlock: accepted and kept-reject envelopes both consume their nonce', () => {
    const chain = new TestChain()
    runRows(chain, [
      { by: ALICE, nonce: 0, action: place(BTC, 'Bid', '60000', '1'), expect: ['OrderAccepted', 'OrderResting'] },
      { by: ALICE, nonce: 2, action: place(BTC, 'Bid', '60000', '1', { tif: 'PostOnly' }), expect: ['OrderAccepted', 'OrderResting'] },
      { by: ALICE, nonce: 1, action: place(BTC, 'Bid', '60000', '1', { tif: 'Fok' }), expect: { reject: 'FokRejected' } },
      { by: ALICE, nonce: 3 + W - 1, action: place(BTC, 'Bid', '60000', '1'), expect: ['OrderAccepted', 'OrderResting'] },
    ])
    expect(lowestUnusedNonce(chain.state, ALICE)).toBe(3)
    // Admission never lets a used nonce into a block; one that gets there anyway is a producer bug.
    for (const nonce of [0, 1, 3 + W - 1, 3 + W]) {
      expect(() => chain.block([{ by: ALICE, nonce, action: place(BTC, 'Bid', '60000', '1') }])).toThrow(AssertionError)
    }
  })

  test('an unknown signer is Unauthorized and still uses its nonce', () => {
    const chain = new TestChain()
    const stranger = agentAddress(200)
    runRows(chain, [{ by: stranger, nonce: 0, action: place(BTC, 'Bid', '60000', '1'), expect: { reject: 'Unauthorized' } }])
    expect(lowestUnusedNonce(chain.state, stranger)).toBe(1)
  })
})

describe('agents and auth channels', () => {
  test('registration rules and what an agent may do', () => {
    const chain = new TestChain()
    const [trader, other, admin, quoter] = [agentAddress(1), agentAddress(2), agentAddress(3), agentAddress(4)]
    runRows(chain, [
      {
        by: ALICE,
        action: registerAgent(trader, 'Trader'),
        expect: [ev('AgentRegistered', { account: ALICE, agent: trader, role: 'Trader', name: 'bot' })],
      },
      // The agent's orders are its master's; the agent keeps its own nonces, starting at 0.
      {
        by: trader,
        nonce: 0,
        action: place(BTC, 'Bid', '60000', '1'),
        expect: [ev('OrderAccepted', { account: ALICE }), ev('OrderResting', { account: ALICE })],
      },
      // RegisterAgent is user-signed by the master; CreateMarket needs a master key.
      { by: trader, action: registerAgent(other, 'Trader'), expect: { reject: 'Unauthorized' } },
      { by: ALICE, action: registerAgent(other, 'Admin'), expect: { reject: 'Unauthorized' } },
      { by: ALICE, action: registerAgent(ALICE, 'Trader'), expect: { reject: 'InvalidAgent' } },
      { by: ALICE, action: registerAgent(BOB, 'Trader'), expect: { reject: 'InvalidAgent' } },
      { by: BOB, action: registerAgent(trader, 'Trader'), expect: { reject: 'InvalidAgent' } },
      { by: ALICE, action: registerAgent(trader, 'Trader', 'renamed'), expect: [ev('AgentRegistered', { name: 'renamed' })] },
      { by: ADMIN, action: registerAgent(admin, 'Admin'), expect: ['AgentRegistered'] },
      { by: admin, action: createMarket({ symbol: 'NEW-USD' }), expect: { reject: 'Unauthorized' } },
      { by: admin, action: place(BTC, 'Bid', '60000', '1'), expect: { reject: 'Unauthorized' } },
      { by: ADMIN, action: registerAgent(quoter, 'Quoter'), expect: { reject: 'Unauthorized' } },
      { by: ADMIN, action: createMarket({ symbol: 'NEW-USD' }), expect: ['MarketCreated'] },
    ])
    expect(chain.state.accounts.get(ALICE)!.orders.size).toBe(1)
    expect(chain.state.agents.get(trader)).toEqual({ agent: trader, master: ALICE, role: 'Trader', name: 'renamed' })
  })

  test('at most agentsPerMasterMax agents; re-registering one at the limit still works', () => {
    const chain = new TestChain()
    const max = LIMITS.agentsPerMasterMax
    chain.block(Array.from({ length: max }, (_, i) => ({ by: ALICE, action: registerAgent(agentAddress(i), 'Trader') })))
    expect(chain.state.agents.size).toBe(max)
    runRows(chain, [
      { by: ALICE, action: registerAgent(agentAddress(max), 'Trader'), expect: { reject: 'AgentLimitReached' } },
      { by: ALICE, action: registerAgent(agentAddress(0), 'Trader', 'again'), expect: ['AgentRegistered'] },
      { by: BOB, action: registerAgent(agentAddress(max), 'Trader'), expect: ['AgentRegistered'] },
    ])
  })
})

// Hyperliquid's L1 signing against the vectors of its official Python SDK (hyperliquid-python-sdk,
// tests/signing_test.py), its number rules and our cloid rules.
import { describe, expect, test } from 'bun:test'
import { bytesToHex } from '../../lib/hex.ts'
import { addressOfPrivateKey, l1ConnectionId } from '../../wire/signing.ts'
import { CloidGenerator, isCloid, normalizeCloid } from './hyperliquid-cloid.ts'
import { isValidPrice, roundPrice, roundSize, toWire } from './hyperliquid-numbers.ts'
import { orderAction, orderWire, recoverL1Signer, signL1Action } from './hyperliquid-signing.ts'

// The SDK tests' wallet.
const SDK_KEY = '0x0123456789012345678901234567890123456789012345678901234567890123'

describe('L1 signing matches the Hyperliquid Python SDK', () => {
  test('test_phantom_agent_creation_matches_production: the connection id of an IOC order', () => {
    // order_request_to_order_wire({coin ETH, is_buy, sz 0.0147, limit_px 1670.1, Ioc}, asset 4), nonce 1677777606040.
    const action = orderAction([
      orderWire({ asset: 4, isBuy: true, px: toWire('1670.1'), sz: toWire('0.0147'), reduceOnly: false, tif: 'Ioc' }),
    ])
    expect(bytesToHex(l1ConnectionId(action, 1677777606040))).toBe('0x0fcbeda5ae3c4950a548021552a4fea2226858c4453571bf3f24ba017eac2908')
  })

  test('test_l1_action_signing_order_with_cloid_matches: r, s and v on mainnet and testnet', () => {
    const action = orderAction([
      orderWire({
        asset: 1,
        isBuy: true,
        px: toWire('100'),
        sz: toWire('100'),
        reduceOnly: false,
        tif: 'Gtc',
        cloid: '0x00000000000000000000000000000001',
      }),
    ])
    const mainnet = signL1Action(SDK_KEY, action, 0, 'mainnet')
    // The SDK prints r and s without leading zeros (to_hex of an int), so they are compared as numbers.
    expect(BigInt(mainnet.r)).toBe(BigInt('0x41ae18e8239a56cacbc5dad94d45d0b747e5da11ad564077fcac71277a946e3'))
    expect(BigInt(mainnet.s)).toBe(BigInt('0x3c61f667e747404fe7eea8f90ab0e76cc12ce60270438b2058324681a00116da'))
    expect(mainnet.v).toBe(27)
    const testnet = signL1Action(SDK_KEY, action, 0, 'testnet')
    expect(BigInt(testnet.r)).toBe(BigInt('0xeba0664bed2676fc4e5a743bf89e5c7501aa6d870bdb9446e122c9466c5cd16d'))
    expect(BigInt(testnet.s)).toBe(BigInt('0x7f3e74825c9114bc59086f1eebea2928c190fdfbfde144827cb02b85bbe90988'))
    expect(testnet.v).toBe(28)
  })

  test('test_l1_action_signing_order_matches: the same order without a cloid', () => {
    const action = orderAction([orderWire({ asset: 1, isBuy: true, px: '100', sz: '100', reduceOnly: false, tif: 'Gtc' })])
    const mainnet = signL1Action(SDK_KEY, action, 0, 'mainnet')
    expect(BigInt(mainnet.r)).toBe(BigInt('0xd65369825a9df5d80099e513cce430311d7d26ddf477f5b3a33d2806b100d78e'))
    expect(BigInt(mainnet.s)).toBe(BigInt('0x2b54116ff64054968aa237c20ca9ff68000f977c93289157748a3162b6ea940e'))
    expect(mainnet.v).toBe(28)
  })

  test('the signer recovers from the signature only on the network it signed for', () => {
    const action = orderAction([orderWire({ asset: 0, isBuy: false, px: '50000', sz: '0.1', reduceOnly: true, tif: 'Ioc' })])
    const sig = signL1Action(SDK_KEY, action, 1_700_000_000_000, 'testnet')
    expect(recoverL1Signer(action, 1_700_000_000_000, sig, 'testnet')).toBe(addressOfPrivateKey(SDK_KEY))
    expect(recoverL1Signer(action, 1_700_000_000_000, sig, 'mainnet')).not.toBe(addressOfPrivateKey(SDK_KEY))
    expect(recoverL1Signer(action, 1_700_000_000_001, sig, 'testnet')).not.toBe(addressOfPrivateKey(SDK_KEY))
  })
})

describe('number rules', () => {
  test('wire form drops trailing zeros, as float_to_wire does', () => {
    expect(toWire('100.0')).toBe('100')
    expect(toWire('0.01470')).toBe('0.0147')
    expect(toWire('0')).toBe('0')
    expect(() => toWire('1e5')).toThrow('not a decimal number')
  })

  test('prices: 5 significant figures, at most 6 - szDecimals decimals, integers always valid', () => {
    expect(roundPrice('1670.123', 4)).toBe('1670.1')
    expect(roundPrice('1670.15', 4)).toBe('1670.2')
    expect(roundPrice('50009.6', 5)).toBe('50010')
    expect(roundPrice('123456.7', 0)).toBe('123457')
    expect(roundPrice('123456', 0)).toBe('123456')
    expect(roundPrice('0.000123456', 0)).toBe('0.000123')
    expect(roundPrice('0.0123456', 2)).toBe('0.0123')
    expect(roundPrice('0.00000001', 2)).toBeUndefined()
    expect(isValidPrice('1670.1', 4)).toBe(true)
    expect(isValidPrice('1670.12', 4)).toBe(false)
    expect(isValidPrice('12345.6', 0)).toBe(false)
    expect(isValidPrice('123456', 5)).toBe(true)
    expect(isValidPrice('0.1234', 3)).toBe(false)
  })

  test('sizes: rounded toward zero to szDecimals', () => {
    expect(roundSize('0.123456', 4)).toBe('0.1234')
    expect(roundSize('1.99999', 0)).toBe('1')
    expect(roundSize('0.00001', 4)).toBeUndefined()
  })
})

describe('cloids', () => {
  test('16 bytes as 0x + 32 hex; lower-cased', () => {
    expect(isCloid('0x1234567890abcdef1234567890ABCDEF')).toBe(true)
    expect(normalizeCloid('0x1234567890abcdef1234567890ABCDEF')).toBe('0x1234567890abcdef1234567890abcdef')
    for (const bad of ['0x1234', '1234567890abcdef1234567890abcdef', `0x${'g'.repeat(32)}`, `0x${'0'.repeat(34)}`])
      expect(() => normalizeCloid(bad)).toThrow('cloid must be 0x followed by 32 hex digits')
  })

  test('the generator never repeats, even with a frozen or backward clock', () => {
    let now = 1_800_000_000_000
    const gen = new CloidGenerator(() => now)
    const seen = new Set<string>()
    for (let i = 0; i < 70_000; i++) {
      if (i === 50_000) now -= 5_000
      const c = gen.next()
      expect(isCloid(c)).toBe(true)
      seen.add(c)
    }
    expect(seen.size).toBe(70_000)
  })
})

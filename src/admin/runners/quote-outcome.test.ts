import { describe, expect, test } from 'bun:test'
import type { ActionReply, EventViewReply } from '../../client/rpc-client.ts'
import { quoteItemOutcomes } from './quote-outcome.ts'

// Fixtures: only the fields quoteItemOutcomes reads, so the bodies are partial.
const event = (sub_kind: string, body: Record<string, unknown>): EventViewReply =>
  ({
    height: 5,
    seq: 0,
    envelope_idx: 0,
    kind: 'Core',
    sub_kind,
    market_id: 4,
    symbol: 'XAU-USD',
    account: '0x1',
    body,
  }) as unknown as EventViewReply

describe('quoteItemOutcomes', () => {
  test('an accepted batch: items named by BatchItemRejected are rejected, the rest accepted', () => {
    const reply: ActionReply = {
      status: 'accepted',
      tx_hash: '0x',
      height: 5,
      envelope_idx: 0,
      events: [
        event('OracleQuoteAccepted', {}),
        event('BatchItemRejected', { index: 1, reason: 'QuoteCrossed', message: 'bid 76 is above ask 75' }),
      ],
    }
    expect(quoteItemOutcomes(reply, 3)).toEqual([
      { index: 0, accepted: true },
      { index: 1, accepted: false, reason: 'QuoteCrossed', message: 'bid 76 is above ask 75' },
      { index: 2, accepted: true },
    ])
  })

  test('a kept-reject of one item carries its reason', () => {
    const reply: ActionReply = {
      status: 'kept-reject',
      tx_hash: '0x',
      height: 5,
      envelope_idx: 0,
      reason: { code: 'QuoteTooFrequent', message: '50 ms after the last accepted quote' },
    }
    expect(quoteItemOutcomes(reply, 1)).toEqual([
      { index: 0, accepted: false, reason: 'QuoteTooFrequent', message: '50 ms after the last accepted quote' },
    ])
  })

  test('a kept-reject of several items is split into per-item reasons', () => {
    const reply: ActionReply = {
      status: 'kept-reject',
      tx_hash: '0x',
      height: 5,
      envelope_idx: 0,
      reason: {
        code: 'QuoteCrossed',
        message: 'item 0: QuoteCrossed (bid 76 is above ask 75); item 1: QuoteSourceTooOld (source_ts_ms 1 is 5 ms old (max 3))',
      },
    }
    expect(quoteItemOutcomes(reply, 2)).toEqual([
      { index: 0, accepted: false, reason: 'QuoteCrossed', message: 'bid 76 is above ask 75' },
      { index: 1, accepted: false, reason: 'QuoteSourceTooOld', message: 'source_ts_ms 1 is 5 ms old (max 3)' },
    ])
  })
})

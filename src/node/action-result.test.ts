// The JSON text the block producer keeps on an accepted result (action-result.ts) must be exactly
// what JSON.stringify makes of the result, since /action and the WebSocket send it in its place;
// and the results reach a callback (ChainNode.submitWith) inside the reply batches, a hundred at a
// time, before the block is announced.
import { afterAll, expect, test } from 'bun:test'
import { manualDevNode } from '../../test/support/manual-node.ts'
import { DEV_KEYS } from '../../test/support/node-process.ts'
import { Signer } from '../client/signer.ts'
import { type ActionResult, actionResultJson } from './action-result.ts'
import { prepareAdmission } from './admission-prepare.ts'

const manual = manualDevNode('perpd-action-result-')
const node = manual.node
afterAll(() => manual.close())

const maker = new Signer(DEV_KEYS[1]!)
const taker = new Signer(DEV_KEYS[2]!)
const order = (side: 'Bid' | 'Ask', price: string, qty: string, tif = 'Gtc') => ({
  PlaceOrder: { market_id: 1, side, price, qty, tif, reduce_only: false },
})

test("an accepted result's kept JSON is JSON.stringify of the result, fills and all", async () => {
  const resting = [
    node.submit(maker.sign(order('Ask', '60000', '0.01'), 1, 'dev').params),
    node.submit(maker.sign(order('Ask', '60001.5', '0.02'), 2, 'dev').params),
    node.submit(maker.sign({ Noop: {} }, 3, 'dev').params),
  ]
  node.produceBlock()
  // Crosses both asks: fills with the maker's account, fees, decimals at the market's precision.
  const crossing = node.submit(taker.sign(order('Bid', '60002', '0.05', 'Ioc'), 1, 'dev').params)
  const missing = node.submit(taker.sign({ CancelOrder: { market_id: 1, order_id: 999_999 } }, 2, 'dev').params)
  node.produceBlock()
  const results = [...(await Promise.all(resting)), await crossing, await missing]
  expect(results.map((r) => r.status)).toEqual(['accepted', 'accepted', 'accepted', 'accepted', 'kept-reject'])
  const filled = results[3] as Extract<ActionResult, { status: 'accepted' }>
  expect(filled.events.filter((e) => e.sub_kind === 'Filled').length).toBe(2)
  for (const r of results) {
    const text = actionResultJson(r)
    expect(text).toBe(JSON.stringify(r))
    expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(r)))
  }
  // A result the node did not make (a forwarded reply, a test's object) is stringified.
  expect(actionResultJson({ status: 'accepted', events: [] })).toBe('{"status":"accepted","events":[]}')
})

test('submitWith answers inside the reply batch, after the block is stored and before it is announced', async () => {
  const order_: string[] = []
  node.onReplies({ start: () => order_.push('start'), end: () => order_.push('end') })
  node.onBlock((b) => order_.push(`announce ${b.stored.header.height}`))
  const params = maker.sign(order('Ask', '61000', '0.01'), 4, 'dev').params
  let answered: ActionResult | undefined
  node.submitWith(prepareAdmission(params, 'dev'), (r) => {
    answered = r
    order_.push(`reply ${node.state.height}`)
  })
  expect(answered).toBeUndefined()
  const { stored } = node.produceBlock()
  expect(order_).toEqual(['start', `reply ${stored.header.height}`, 'end', `announce ${stored.header.height}`])
  expect(answered?.status).toBe('accepted')
  // A refusal comes at once, outside any block: the same nonce again.
  let refused: ActionResult | undefined
  node.submitWith(prepareAdmission(params, 'dev'), (r) => {
    refused = r
  })
  expect(refused).toMatchObject({ status: 'refused', error: { data: { reason: 'NONCE_REPLAY' } } })
})

test("a block's replies come in reply batches of a hundred, all before it is announced", () => {
  const chunked = manualDevNode('perpd-action-result-chunks-')
  const n = chunked.node
  try {
    const log: string[] = []
    n.onReplies({ start: () => log.push('start'), end: () => log.push('end') })
    n.onBlock(() => log.push('announce'))
    // 250 actions: 25 each from the ten development accounts.
    for (const key of DEV_KEYS)
      for (let nonce = 1; nonce <= 25; nonce++)
        n.submitWith(prepareAdmission(new Signer(key).sign({ Noop: {} }, nonce, 'dev').params, 'dev'), (r) => log.push(r.status))
    n.produceBlock()
    const accepted = (count: number) => Array<string>(count).fill('accepted')
    expect(log).toEqual(['start', ...accepted(100), 'end', 'start', ...accepted(100), 'end', 'start', ...accepted(50), 'end', 'announce'])
  } finally {
    chunked.close()
  }
})

test("a reply batch that throws between chunks is logged, and the block's actions are all answered and it is announced", () => {
  const lines: string[] = []
  const chunked = manualDevNode('perpd-action-result-chunk-throw-', (l) => lines.push(l))
  const n = chunked.node
  try {
    let ends = 0
    n.onReplies({
      start: () => {},
      end: () => {
        if (++ends === 1) throw new Error('a batch bug')
      },
    })
    let announced = 0
    n.onBlock(() => announced++)
    let answered = 0
    for (const key of DEV_KEYS.slice(0, 5))
      for (let nonce = 1; nonce <= 30; nonce++)
        n.submitWith(prepareAdmission(new Signer(key).sign({ Noop: {} }, nonce, 'dev').params, 'dev'), () => answered++)
    n.produceBlock()
    expect(answered).toBe(150)
    expect(announced).toBe(1)
    expect(lines.some((l) => l.includes('a batch bug'))).toBe(true)
  } finally {
    chunked.close()
  }
})

test("a throwing callback is logged and the block's other actions are still answered", async () => {
  const lines: string[] = []
  const logged = manualDevNode('perpd-action-result-throw-', (l) => lines.push(l))
  const n = logged.node
  try {
    n.submitWith(prepareAdmission(maker.sign({ Noop: {} }, 1, 'dev').params, 'dev'), () => {
      throw new Error('a reply bug')
    })
    const other = n.submit(taker.sign({ Noop: {} }, 1, 'dev').params)
    n.produceBlock()
    expect((await other).status).toBe('accepted')
    expect(lines.some((l) => l.includes('a reply bug'))).toBe(true)
    expect(n.state.height).toBe(1)
    // A refusal's callback (the nonce again) throws out of neither submitWith nor the node.
    expect(() =>
      n.submitWith(prepareAdmission(maker.sign({ Noop: {} }, 1, 'dev').params, 'dev'), () => {
        throw new Error('a refusal reply bug')
      }),
    ).not.toThrow()
    expect(lines.some((l) => l.includes('a refusal reply bug'))).toBe(true)
  } finally {
    logged.close()
  }
})

// The BatchPlaceOrder of the benches that time one batch at a time (admission.ts, action-decode.ts):
// IOC orders of 0.001 BTC-USD, bids at 55,000-60,000 and asks at 70,000-75,000, so none crosses the
// development genesis's 65,000 mark and each closes unfilled, as the batch load of load.ts sends them.
import { batchPlaceOrder } from '../../src/client/actions.ts'

/** The i-th batch of `orders` such orders; the prices move with i so that batches differ. */
export function iocBatchAwayFromMark(i: number, orders: number) {
  return batchPlaceOrder(
    Array.from({ length: orders }, (_, k) => ({
      market_id: 1,
      side: k % 2 === 0 ? ('Bid' as const) : ('Ask' as const),
      price: (k % 2 === 0 ? 55_000 + ((i + k) % 5_000) : 75_000 - ((i + k) % 5_000)).toFixed(1),
      qty: '0.001',
      tif: 'Ioc' as const,
      reduce_only: false,
    })),
  )
}

// The block store's commit (src/node/block-store.ts) as a chain grows: synthetic blocks of
// --envelopes signed orders (random tx hashes), each with --events-per-envelope events (an IOC
// order's OrderAccepted and OrderDone, bodies as the node writes them), committed to a fresh
// chain.sqlite one by one, durable as the node commits them (WAL, synchronous=FULL); prints the
// wall and CPU milliseconds per block every --every blocks. A batch of 50 IOC orders is one
// envelope with 100 events: --envelopes 350 --events-per-envelope 100 is a block of the batch load.
// --with-tx-index adds the UNIQUE index on tx_hash that stores had before 2026-11-26 (a store is
// rebuilt without it when opened), for comparison: its commit cost grows with the chain, a page
// write per envelope once the index outgrows SQLite's cache. --upgrade writes the blocks in the
// layout of stores before 2026-11-27 (a row per event) instead and times the first open, which
// moves the events into groups.
//   bun scripts/bench/block-store.ts [--blocks 1500] [--envelopes 2000] [--events-per-envelope 2] [--every 150] [--with-tx-index] [--upgrade]
import { Database } from 'bun:sqlite'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { defineOptions, parseOptionsOrExit } from '../../src/lib/options.ts'
import { BlockStore, type StoredBlock, type StoredEnvelope, type StoredEvent } from '../../src/node/block-store.ts'
import { writeLegacyBlockStore } from '../../test/support/legacy-block-store.ts'

const { values: flags } = parseOptionsOrExit(
  process.argv.slice(2),
  defineOptions({
    blocks: { type: 'integer', default: 1_500, min: 1, max: 1_000_000, description: 'blocks committed' },
    envelopes: { type: 'integer', default: 2_000, min: 1, max: 100_000, description: 'envelopes per block' },
    'events-per-envelope': { type: 'integer', default: 2, min: 0, max: 1_000, description: 'events each envelope raised' },
    every: { type: 'integer', default: 150, min: 1, max: 1_000_000, description: 'blocks per printed figure' },
    'with-tx-index': { type: 'boolean', default: false, description: 'add the UNIQUE index on tx_hash that older stores had' },
    upgrade: { type: 'boolean', default: false, description: 'write the older layout (a row per event) and time the first open' },
  }),
  {
    usage: 'bun scripts/bench/block-store.ts [options]',
    summary: 'Milliseconds per block commit of the block store as the chain grows, or of the move to event groups.',
    program: 'bun scripts/bench/block-store.ts',
  },
)

const dir = mkdtempSync(join(tmpdir(), 'perpd-bench-store-'))
try {
  const signers = Array.from({ length: 150 }, () => `0x${randomBytes(20).toString('hex')}`)
  const block = (height: number): StoredBlock => {
    const envelopes: StoredEnvelope[] = []
    const events: StoredEvent[] = []
    for (let i = 0; i < flags.envelopes; i++) {
      const signer = signers[i % signers.length]!
      envelopes.push({
        height,
        envelopeIdx: i,
        txHash: `0x${randomBytes(32).toString('hex')}`,
        signer,
        nonce: 1_700_000_000_000 + height * flags.envelopes + i,
        actionKind: 'PlaceOrder',
        marketId: 1,
        actionJson: `{"PlaceOrder":{"market_id":1,"side":"Bid","price":"5${i % 9999}.5","qty":"0.001","tif":"Gtc","reduce_only":false,"client_order_id":"r-${height}-${i}"}}`,
        signatureJson: `{"r":"0x${randomBytes(32).toString('hex')}","s":"0x${randomBytes(32).toString('hex')}","v":27}`,
        status: 'accepted',
        reasonJson: null,
      })
      const orderId = height * flags.envelopes + i
      for (let k = 0; k < flags['events-per-envelope']; k++) {
        const subKind = k % 2 === 0 ? 'OrderAccepted' : 'OrderDone'
        const fields =
          k % 2 === 0
            ? `"order_id":${orderId * 1_000 + k},"side":"Bid","price":"5${i % 9999}.5","qty":"0.001","tif":"Ioc","reduce_only":false`
            : `"order_id":${orderId * 1_000 + k - 1},"reason":"IocExpired","remaining":"0.001","filled":"0"`
        events.push({
          height,
          seq: events.length,
          envelopeIdx: i,
          kind: 'Exec',
          subKind,
          marketId: 1,
          account: signer,
          bodyJson: `{"kind":"Exec","sub_kind":"${subKind}","market_id":1,"account":"${signer}",${fields}}`,
        })
      }
    }
    const header = {
      height,
      parent: `0x${randomBytes(32).toString('hex')}`,
      digest: `0x${randomBytes(32).toString('hex')}`,
      timestampMs: 1_700_000_000_000 + height * 200,
      envelopeCount: envelopes.length,
      eventCount: events.length,
      stateRoot: `0x${randomBytes(32).toString('hex')}`,
    }
    return { header, envelopes, events }
  }
  if (flags.upgrade) {
    const blocks = function* () {
      for (let height = 1; height <= flags.blocks; height++) yield block(height)
    }
    writeLegacyBlockStore(dir, blocks())
    const events = flags.blocks * flags.envelopes * flags['events-per-envelope']
    const cpu0 = process.cpuUsage()
    const t0 = performance.now()
    const store = new BlockStore(dir)
    const wallMs = performance.now() - t0
    const cpu = process.cpuUsage(cpu0)
    console.log(
      `moved ${events.toLocaleString('en-US')} events of ${flags.blocks} blocks into groups (moved: ${store.groupedLegacyEvents}) in ${wallMs.toFixed(0)} ms wall, ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms CPU: ${((wallMs / events) * 1e3).toFixed(2)} s per million events`,
    )
    store.close()
  } else {
    const store = new BlockStore(dir)
    if (flags['with-tx-index']) {
      const db = new Database(join(dir, 'chain.sqlite'))
      db.exec('CREATE UNIQUE INDEX envelopes_tx_hash ON envelopes (tx_hash)')
      db.close()
    }
    console.log(
      `block store commits: ${flags.envelopes} envelopes and ${flags.envelopes * flags['events-per-envelope']} events a block, ${flags['with-tx-index'] ? 'with' : 'without'} the tx_hash index, in ${dir}`,
    )
    let wallMs = 0
    let cpuUs = 0
    for (let height = 1; height <= flags.blocks; height++) {
      const b = block(height)
      const cpu0 = process.cpuUsage()
      const t0 = performance.now()
      store.commitBlock(b)
      wallMs += performance.now() - t0
      const cpu = process.cpuUsage(cpu0)
      cpuUs += cpu.user + cpu.system
      if (height % flags.every === 0) {
        console.log(
          `${(height * flags.envelopes).toLocaleString('en-US')} envelopes stored: ${(wallMs / flags.every).toFixed(1)} ms wall, ${(cpuUs / 1000 / flags.every).toFixed(1)} ms CPU per commit`,
        )
        wallMs = 0
        cpuUs = 0
      }
    }
    store.close()
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}

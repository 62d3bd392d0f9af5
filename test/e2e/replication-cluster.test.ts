// A replicated chain on a three-server NATS cluster with a three-replica stream (--nats-replicas 3,
// docs/replication.md#the-stream): the server that leads the stream is killed while traders send actions;
// the stream elects another leader and the chain goes on (blocks, accepted actions, the follower
// with it). The server is started again on its store directory and catches up with the stream.
import { afterAll, expect, test } from 'bun:test'
import { jetstreamManager } from '@nats-io/jetstream'
import { connect } from '@nats-io/transport-node'
import { placeOrder } from '../../src/client/actions.ts'
import { PerpdClient } from '../../src/client/perpd-client.ts'
import { startNatsCluster } from '../support/nats-server.ts'
import { DEV_KEYS, type NodeProcess, removeDir } from '../support/node-process.ts'
import { until } from '../support/poll.ts'
import { healthOf, startReplicatedNode, storedHeaders } from '../support/replicated-node.ts'

const cluster = await startNatsCluster()
const urls = cluster.map((s) => s.url).join(',')
const common = { nats: urls, leaseTtlMs: 5_000, extraArgs: ['--nats-replicas', '3'] }
const leader = await startReplicatedNode({ role: 'leader', ...common })
const follower = await startReplicatedNode({ role: 'follower', ...common })
const started: NodeProcess[] = [leader, follower]
afterAll(async () => {
  for (const n of started) {
    await n.stop('SIGKILL')
    removeDir(n.dataDir)
  }
  for (const s of cluster) await s.remove()
})

test('one NATS server of three dies under load: the chain goes on; back, it catches up', async () => {
  const stream = (await healthOf(leader.url)).replication!.stream
  const nc = await connect({ servers: urls.split(',') })
  const jsm = await jetstreamManager(nc)
  try {
    const info = await jsm.streams.info(stream)
    expect(info.config.num_replicas).toBe(3)
    const streamLeader = info.cluster!.leader!
    // The servers are named n1, n2, n3 (test/support/nats-server.ts).
    const victim = cluster[Number(streamLeader.slice(1)) - 1]!

    let accepted = 0
    let sending = true
    const load = [1, 2, 3, 4].map(async (i) => {
      const client = new PerpdClient({ url: i % 2 === 0 ? leader.url : follower.url, privateKey: DEV_KEYS[i]! })
      for (let k = 0; sending; k++) {
        const side = i % 2 === 0 ? 'Bid' : 'Ask'
        const r = await client
          .send(
            placeOrder({
              market_id: 1,
              side,
              price: String(side === 'Bid' ? 50_000 + (k % 3) : 50_010),
              qty: '0.01',
              tif: 'Gtc',
              reduce_only: false,
            }),
          )
          .catch(() => undefined)
        if (r?.status === 'accepted') accepted++
      }
    })
    await until(
      'actions under way',
      async () => accepted,
      (n) => n >= 20,
      30_000,
    )
    await victim.stop('SIGKILL')
    const killedAt = performance.now()
    const height = (await healthOf(leader.url)).height
    const before = accepted
    // The chain goes on: more blocks, more accepted actions, the follower with it.
    await until(
      'blocks after the kill',
      () => healthOf(leader.url),
      (h) => h.height >= height + 20,
      60_000,
    )
    await until(
      'actions accepted after the kill',
      async () => accepted,
      (n) => n >= before + 20,
      60_000,
    )
    console.log(`the chain went on ${Math.round(performance.now() - killedAt)} ms after the stream leader's server was killed`)
    const tip = (await healthOf(leader.url)).height
    await until(
      'the follower follows',
      () => healthOf(follower.url),
      (h) => h.height >= tip,
      60_000,
    )

    await victim.restart()
    await until(
      'the restarted server catches up with the stream',
      () => jsm.streams.info(stream),
      (i) => (i.cluster?.replicas ?? []).length === 2 && i.cluster!.replicas!.every((r) => r.current && (r.lag ?? 0) === 0),
      60_000,
    )
    sending = false
    await Promise.all(load)
    const last = (await healthOf(leader.url)).height
    await until(
      'the follower reaches the leader',
      () => healthOf(follower.url),
      (h) => h.height >= last,
      60_000,
    )
    const lead = storedHeaders(leader.dataDir).filter((b) => b.height <= last)
    expect(storedHeaders(follower.dataDir).filter((b) => b.height <= last)).toEqual(lead)
    expect((await healthOf(leader.url)).status).toBe('ok')
  } finally {
    await nc.close()
  }
}, 240_000)

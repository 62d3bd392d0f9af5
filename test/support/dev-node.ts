// The setup most end-to-end test files share: one dev node for the whole file, a read client, a
// client per development key, and checks of /action replies that fail with the whole reply.
import { afterAll } from 'bun:test'
import { PerpdClient } from '../../src/client/perpd-client.ts'
import { type ActionReply, RpcCallError, type RpcClient } from '../../src/client/rpc-client.ts'
import { CheckedRpcClient } from './checked-rpc.ts'
import { DEV_KEYS, type NodeProcess, removeDir, type StartNodeOptions, startNode } from './node-process.ts'

/** A dev node started for one test file, with its clients. */
export interface DevNode {
  readonly node: NodeProcess
  /** A read client of the node; it checks every reply against the method's result schema. */
  readonly rpc: RpcClient
  /** A client signing with development key #index (docs/protocol.md#development-network; #0 is the Admin). */
  client(index: number): PerpdClient
}

/**
 * Starts a dev node for the calling test file (call it at the top level of the file) and stops it,
 * removing its data directory, once the file's tests are done.
 */
export async function startDevNodeForFile(opts: StartNodeOptions = {}): Promise<DevNode> {
  const node = await startNode(opts)
  afterAll(async () => {
    await node.stop()
    removeDir(node.dataDir)
  })
  return {
    node,
    rpc: new CheckedRpcClient(node.url),
    client: (index) => new PerpdClient({ url: node.url, privateKey: DEV_KEYS[index]! }),
  }
}

/** The getAccount data of an address, typed as the test reads it. */
export async function getAccount<T>(rpc: RpcClient, address: string): Promise<T> {
  return (await rpc.query<T>('getAccount', { address })).data
}

/** An /action reply that must be accepted: returned narrowed; anything else throws with the reply. */
export function accepted(r: ActionReply): Extract<ActionReply, { status: 'accepted' }> {
  if (r.status !== 'accepted') throw new Error(`expected accepted, got ${JSON.stringify(r)}`)
  return r
}

/** The events of an /action reply that must be accepted. */
export function acceptedEvents(r: ActionReply) {
  return accepted(r).events
}

/** The reason code of an /action reply that must be a kept-reject; anything else throws with the reply. */
export function keptRejectReason(r: ActionReply): string {
  if (r.status !== 'kept-reject') throw new Error(`expected a kept-reject, got ${JSON.stringify(r)}`)
  return r.reason.code
}

/** The order_id of the OrderAccepted event of an accepted reply. */
export function orderIdOf(r: ActionReply): number {
  return accepted(r).events.find((e) => e.sub_kind === 'OrderAccepted')!.body.order_id as number
}

/** The refusal (RpcCallError) a call must end with; throws when it succeeds or fails otherwise. */
export async function refusal(p: Promise<unknown>): Promise<RpcCallError> {
  try {
    await p
  } catch (err) {
    if (err instanceof RpcCallError) return err
    throw err
  }
  throw new Error('expected a refusal')
}

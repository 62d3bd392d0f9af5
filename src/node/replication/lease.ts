// The leader's lease (docs/replication.md#failover): one key in a JetStream key-value bucket whose
// values live the bucket's TTL. The leader renews it well within the TTL with a compare-and-set on
// its revision; when it stops renewing, the value expires and the first candidate to create the key
// again holds it. The lease decides who should produce; the stream's fence (chain-log.ts) makes
// sure that whoever does not hold it cannot append anyway.

import { JetStreamApiError } from '@nats-io/jetstream'
import { type KV, Kvm } from '@nats-io/kv'
import type { NatsConnection } from '@nats-io/transport-node'
import { Type } from '@sinclair/typebox'
import { compileValidator } from '../../wire/validate.ts'
import { LEASE_KEY } from './chain-stream.ts'

/** What the lease key holds: who leads and where its HTTP API is. */
const LeaseValueSchema = Type.Object({
  node_id: Type.String({ minLength: 1, maxLength: 64 }),
  url: Type.String({ minLength: 1, maxLength: 2048 }),
  since_ms: Type.Integer({ minimum: 0 }),
})
const leaseValueValidator = compileValidator(LeaseValueSchema)

export interface LeaseValue {
  readonly node_id: string
  readonly url: string
  readonly since_ms: number
}

/** JetStream's error code for a compare-and-set on a revision that is not the key's. */
const WRONG_LAST_SEQUENCE = 10071

export class Lease {
  private constructor(
    private readonly kv: KV,
    /** The bucket's TTL: how long a value lives without renewal. */
    readonly ttlMs: number,
  ) {}

  /** Opens the lease bucket, creating it with ttlMs and replicas when it does not exist (an existing bucket keeps its TTL). */
  static async open(nc: NatsConnection, bucket: string, ttlMs: number, replicas: number): Promise<Lease> {
    const kvm = new Kvm(nc)
    let kv: KV
    try {
      kv = await kvm.open(bucket)
      await kv.status()
    } catch {
      kv = await kvm.create(bucket, { history: 1, ttl: ttlMs, replicas })
    }
    const status = await kv.status()
    return new Lease(kv, status.ttl > 0 ? status.ttl : ttlMs)
  }

  /** The holder and the revision of its value, or undefined when nobody holds the lease. */
  async holder(): Promise<{ readonly value: LeaseValue; readonly revision: number } | undefined> {
    const entry = await this.kv.get(LEASE_KEY)
    if (entry === null || entry.operation !== 'PUT' || entry.length === 0) return undefined
    let value: unknown
    try {
      value = entry.json()
    } catch {
      return undefined
    }
    return leaseValueValidator.check(value) ? { value, revision: entry.revision } : undefined
  }

  /** Takes the lease when nobody holds it: its revision, or undefined when another node holds it. */
  async take(value: LeaseValue): Promise<number | undefined> {
    try {
      return await this.kv.create(LEASE_KEY, JSON.stringify(value))
    } catch (err) {
      if (err instanceof JetStreamApiError && err.code === WRONG_LAST_SEQUENCE) return undefined
      if (/wrong last sequence/.test((err as Error).message)) return undefined
      throw err
    }
  }

  /**
   * Renews the lease held at revision: the new revision, or undefined when the key moved on (another
   * node took it, or the value expired first).
   */
  async renew(value: LeaseValue, revision: number): Promise<number | undefined> {
    try {
      return await this.kv.update(LEASE_KEY, JSON.stringify(value), revision)
    } catch (err) {
      if (err instanceof JetStreamApiError && err.code === WRONG_LAST_SEQUENCE) return undefined
      if (/wrong last sequence/.test((err as Error).message)) return undefined
      throw err
    }
  }

  /** Gives the lease up (a leader stopping), when it still holds it at revision. */
  async release(revision: number): Promise<void> {
    await this.kv.delete(LEASE_KEY, { previousSeq: revision })
  }
}

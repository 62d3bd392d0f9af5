// The names of a replicated chain in NATS JetStream (docs/replication.md#the-stream): one stream per
// chain, named after its network and genesis digest, so two chains never share a log; a key-value
// bucket beside it holds the leader's lease.

/** What JetStream allows in a stream, bucket or subject token: letters, digits, `_` and `-`. */
const UNSAFE = /[^A-Za-z0-9_-]/g

/** The JetStream names of one chain. */
export interface ChainStreamNames {
  /** The stream of the block log: record 1 is the genesis, record h + 1 the block at height h. */
  readonly stream: string
  /** The one subject the stream holds. */
  readonly subject: string
  /** The key-value bucket of the leader's lease (key LEASE_KEY). */
  readonly leaseBucket: string
}

/** Every chain stream's subject is `perpd.<stream>.blocks`: followers find the chains of a NATS system with this filter. */
export const CHAIN_SUBJECTS = 'perpd.*.blocks'

/** The key of the lease in the lease bucket. */
export const LEASE_KEY = 'leader'

/** Genesis digests are 0x and 64 hex digits; the stream name keeps the first 16 digits. */
const DIGEST_DIGITS_KEPT = 16

/** The names of the chain of network `network` whose genesis digest is `genesisDigest`. */
export function chainStreamNames(network: string, genesisDigest: string): ChainStreamNames {
  const stream = `PERPD_${network.replace(UNSAFE, '_')}_${genesisDigest.replace(/^0x/, '').slice(0, DIGEST_DIGITS_KEPT)}`
  return namesOfStream(stream)
}

/** The names that go with a stream's name (a follower that found the stream by its subject). */
export function namesOfStream(stream: string): ChainStreamNames {
  return {
    stream,
    subject: `perpd.${stream}.blocks`,
    leaseBucket: `${stream}_lease`,
  }
}

/** The stream sequence of the record of height `height` (the genesis record is sequence 1). */
export const sequenceOf = (height: number): number => height + 1

/** The height of the record at stream sequence `seq`. */
export const heightOf = (seq: number): number => seq - 1

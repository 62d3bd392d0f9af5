// Starts real perpd nodes of a replicated chain (docs/replication.md) as child processes on
// 127.0.0.1 port 0, each with its own data directory, and reads what they report: health, the
// replication figures, and the block headers of their stores.
import { Database } from 'bun:sqlite'
import { join } from 'node:path'
import type { ReplicationHealth } from '../../src/node/health.ts'
import { type NodeProcess, spawnNode } from './node-process.ts'

export interface ReplicatedNodeOptions {
  /** leader: the development genesis (--dev), a candidate for the lease; standby: --standby; follower: --follow. */
  readonly role: 'leader' | 'standby' | 'follower'
  /** nats://... (comma-separated for a cluster). */
  readonly nats: string
  readonly dataDir?: string
  readonly blockTimeMs?: number
  readonly leaseTtlMs?: number
  readonly extraArgs?: readonly string[]
  /** Wait until the node recovered (default true). */
  readonly waitReady?: boolean
}

/** Starts `bun src/main.ts` for one node of a replicated chain, /action rate limits off, no snapshots. */
export async function startReplicatedNode(opts: ReplicatedNodeOptions): Promise<NodeProcess> {
  const role = opts.role === 'leader' ? ['--dev', '--no-dev-quoter'] : opts.role === 'standby' ? ['--standby'] : ['--follow']
  const args = [
    ...role,
    '--nats',
    opts.nats,
    '--lease-ttl-ms',
    String(opts.leaseTtlMs ?? 1_500),
    '--rate-limit-ip',
    '0',
    '--rate-limit-signer',
    '0',
    '--snapshot-every-blocks',
    '0',
    '--admission-threads',
    '0',
    ...(opts.extraArgs ?? []),
  ]
  return spawnNode(`node (${opts.role})`, args, opts)
}

/** The body of /api/v1/health with its replication figures. */
export interface ReplicatedHealth {
  readonly status: string
  readonly height: number
  readonly reasons: { readonly code: string; readonly message: string }[]
  readonly replication?: ReplicationHealth
}

export async function healthOf(url: string): Promise<ReplicatedHealth> {
  return (await (await fetch(`${url}/api/v1/health`)).json()) as ReplicatedHealth
}

/** The (height, digest, state root) of every block a data directory's store holds, ascending. */
export function storedHeaders(dataDir: string): { height: number; digest: string; state_root: string }[] {
  const db = new Database(join(dataDir, 'chain.sqlite'), { readonly: true })
  try {
    return db
      .query<{ height: number; digest: string; state_root: string }, []>('SELECT height, digest, state_root FROM blocks ORDER BY height')
      .all()
  } finally {
    db.close()
  }
}

// The per-IP /action limit behind a reverse proxy: with `--trusted-proxy 127.0.0.1/32` a request
// from 127.0.0.1 counts under the client X-Forwarded-For names, so distinct forwarded clients get
// distinct buckets; without the flag the header is ignored and they share the socket peer's.
import { afterAll, describe, expect, test } from 'bun:test'
import { type NodeProcess, removeDir, startNode } from '../support/node-process.ts'

/** The per-IP limit of these nodes: a bucket of this many /action requests, refilled per second. */
const IP_LIMIT = 3
const BURST = 20

const nodes: NodeProcess[] = []
afterAll(async () => {
  for (const n of nodes) {
    await n.stop()
    removeDir(n.dataDir)
  }
})

async function start(extra: string[]): Promise<NodeProcess> {
  // specRateLimits keeps the limits on; the later --rate-limit-ip wins over the default.
  const node = await startNode({ specRateLimits: true, extraArgs: ['--rate-limit-ip', String(IP_LIMIT), ...extra] })
  nodes.push(node)
  return node
}

/**
 * Sends BURST /action requests at once, the i-th with X-Forwarded-For forwardedFor(i), and counts
 * those refused by the per-IP limit. The body is not a request: one that passes the limit is
 * answered -32600, so nothing reaches a block.
 */
async function burst(node: NodeProcess, forwardedFor: (i: number) => string): Promise<number> {
  const replies = await Promise.all(
    Array.from({ length: BURST }, async (_, i) => {
      const res = await fetch(`${node.url}/api/v1/action`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor(i) },
        body: '{}',
      })
      return (await res.json()) as { error?: { code: number; data?: { reason?: string } } }
    }),
  )
  for (const r of replies) expect([-32000, -32600]).toContain(r.error?.code ?? 0)
  return replies.filter((r) => r.error?.data?.reason === 'RATE_LIMITED').length
}

describe('per-IP /action limit and X-Forwarded-For', () => {
  test('with --trusted-proxy 127.0.0.1/32: distinct forwarded clients get distinct buckets, one client shares its own', async () => {
    const node = await start(['--trusted-proxy', '127.0.0.1/32'])
    expect(await burst(node, (i) => `203.0.113.${i + 1}`)).toBe(0)
    await Bun.sleep(1_100)
    // The rightmost address that is not a trusted proxy is the client: the same one for every request.
    expect(await burst(node, (i) => `10.9.8.${i + 1}, 198.51.100.7, 127.0.0.1`)).toBeGreaterThanOrEqual(1)
  }, 120_000)

  test('without the flag: X-Forwarded-For is ignored, every request counts under the socket peer', async () => {
    const node = await start([])
    expect(await burst(node, (i) => `203.0.113.${i + 1}`)).toBeGreaterThanOrEqual(1)
  }, 120_000)
})

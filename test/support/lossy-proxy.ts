// A proxy in front of a node that can lose replies: an /action whose body matches is forwarded
// (the node takes it and puts it in a block) but its reply never reaches the caller, which gets a
// 502 instead, as when a connection breaks after the request went out. It can also hold back the
// replies of requests whose body matches, as a slow node would, until the test lets them go.
// Everything else passes.
export interface LossyProxy {
  readonly url: string
  /** Loses the replies of the next `count` /action requests whose body contains `needle`. */
  loseReplies(needle: string, count?: number): void
  /** Holds back the replies of requests whose body contains `needle`, from now until `release`. */
  holdReplies(needle: string): HeldReplies
  /** Replies lost so far. */
  readonly lost: number
  stop(): void
}

export interface HeldReplies {
  /** Settles when the first matching reply is held: the caller is waiting on it from then on. */
  readonly reached: Promise<void>
  /** Sends the held replies and stops holding. */
  release(): void
}

export function startLossyProxy(target: string): LossyProxy {
  let needle: string | undefined
  let remaining = 0
  let lost = 0
  let hold: { needle: string; reached: () => void; released: Promise<void> } | undefined
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    idleTimeout: 120,
    async fetch(req) {
      const url = new URL(req.url)
      const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : await req.text()
      const headers = new Headers(req.headers)
      headers.delete('host')
      const res = await fetch(target + url.pathname + url.search, { method: req.method, headers, body })
      const text = await res.text()
      if (url.pathname === '/api/v1/action' && needle !== undefined && remaining > 0 && body?.includes(needle)) {
        remaining--
        lost++
        return new Response('reply lost', { status: 502 })
      }
      if (hold !== undefined && body?.includes(hold.needle)) {
        hold.reached()
        await hold.released
      }
      return new Response(text, { status: res.status, headers: { 'content-type': res.headers.get('content-type') ?? 'application/json' } })
    },
  })
  return {
    url: `http://127.0.0.1:${server.port}`,
    loseReplies(n: string, count = 1) {
      needle = n
      remaining = count
    },
    holdReplies(n: string): HeldReplies {
      const reached = Promise.withResolvers<void>()
      const released = Promise.withResolvers<void>()
      hold = { needle: n, reached: reached.resolve, released: released.promise }
      return {
        reached: reached.promise,
        release() {
          hold = undefined
          released.resolve()
        },
      }
    },
    get lost() {
      return lost
    },
    stop: () => server.stop(true),
  }
}

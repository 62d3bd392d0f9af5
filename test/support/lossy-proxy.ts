// A proxy in front of a node that can lose replies: an /action whose body matches is forwarded
// (the node takes it and puts it in a block) but its reply never reaches the caller, which gets a
// 502 instead, as when a connection breaks after the request went out. Everything else passes.
export interface LossyProxy {
  readonly url: string
  /** Loses the replies of the next `count` /action requests whose body contains `needle`. */
  loseReplies(needle: string, count?: number): void
  /** Replies lost so far. */
  readonly lost: number
  stop(): void
}

export function startLossyProxy(target: string): LossyProxy {
  let needle: string | undefined
  let remaining = 0
  let lost = 0
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
      return new Response(text, { status: res.status, headers: { 'content-type': res.headers.get('content-type') ?? 'application/json' } })
    },
  })
  return {
    url: `http://127.0.0.1:${server.port}`,
    loseReplies(n: string, count = 1) {
      needle = n
      remaining = count
    },
    get lost() {
      return lost
    },
    stop: () => server.stop(true),
  }
}

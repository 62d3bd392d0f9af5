// Load generator of scripts/bench/query.ts: `connections` concurrent loops POSTing one body to
// /api/v1/query for `seconds`, then posts back the count and latency percentiles.
declare const self: Worker

self.onmessage = async (e: MessageEvent<{ url: string; body: string; seconds: number; connections: number }>) => {
  const { url, body, seconds, connections } = e.data
  const target = `${url}/api/v1/query`
  const latencies: number[] = []
  let errors = 0
  const started = performance.now()
  const deadline = started + seconds * 1000
  const loop = async () => {
    while (performance.now() < deadline) {
      const t0 = performance.now()
      try {
        const res = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
        const text = await res.text()
        if (res.status !== 200 || text.includes('"error"')) {
          if (errors++ === 0) console.error(`first error: ${res.status} ${text.slice(0, 300)}`)
        }
      } catch (err) {
        if (errors++ === 0) console.error(`first error: ${(err as Error).message}`)
      }
      latencies.push(performance.now() - t0)
    }
  }
  await Promise.all(Array.from({ length: connections }, loop))
  const elapsed = (performance.now() - started) / 1000
  latencies.sort((a, b) => a - b)
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0
  self.postMessage({ requests: latencies.length, errors, seconds: elapsed, p50: pct(0.5), p99: pct(0.99), connections })
}

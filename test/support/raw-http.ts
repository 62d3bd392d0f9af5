// A one-request HTTP/1.1 client over a plain TCP socket, for fuzz tests: it sends exactly the bytes
// it is given (any method, path, header or body, even ones fetch() refuses to send), can pick the
// local loopback address (127.0.0.x) the request comes from, and gives up after a deadline, so a
// hanging server is reported as a hang instead of stalling the test.
import net from 'node:net'

/** One request: `path` is sent as is; Content-Length is added for a body unless a header sets it. */
export interface RawRequest {
  readonly method: string
  readonly path: string
  readonly headers?: readonly (readonly [string, string])[]
  readonly body?: string | Uint8Array
  /** The loopback address to connect from (127.0.0.1 unless given). */
  readonly localAddress?: string
  readonly timeoutMs: number
}

/** A parsed reply; header names lower-case. */
export interface RawReply {
  readonly status: number
  readonly headers: Record<string, string>
  readonly text: string
}

const UTF8_DECODER = new TextDecoder()

/** Decodes a chunked transfer-encoded body. */
function dechunk(bytes: Buffer): Buffer {
  const parts: Buffer[] = []
  let at = 0
  for (;;) {
    const eol = bytes.indexOf('\r\n', at)
    if (eol < 0) break
    const size = parseInt(bytes.subarray(at, eol).toString('latin1'), 16)
    if (!Number.isFinite(size) || size === 0) break
    parts.push(bytes.subarray(eol + 2, eol + 2 + size))
    at = eol + 2 + size + 2
  }
  return Buffer.concat(parts)
}

function parseReply(raw: Buffer): RawReply {
  const end = raw.indexOf('\r\n\r\n')
  if (end < 0)
    throw new Error(`no complete HTTP reply head in ${raw.length} bytes: ${JSON.stringify(raw.subarray(0, 200).toString('latin1'))}`)
  const [statusLine, ...lines] = raw.subarray(0, end).toString('latin1').split('\r\n')
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')
  if (m === null) throw new Error(`not an HTTP status line: ${JSON.stringify(statusLine)}`)
  const headers: Record<string, string> = {}
  for (const line of lines) {
    const colon = line.indexOf(':')
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  let body = raw.subarray(end + 4)
  if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = dechunk(body)
  else if (headers['content-length'] !== undefined) body = body.subarray(0, Number(headers['content-length']))
  return { status: Number(m[1]), headers, text: UTF8_DECODER.decode(body) }
}

/**
 * Sends one request on a fresh connection (Connection: close) to `baseUrl` (http://host:port) and
 * reads the reply until the server closes. Rejects on a timeout ("hang"), or when the connection
 * ends without a full reply head.
 */
export function rawRequest(baseUrl: string, req: RawRequest): Promise<RawReply> {
  const { hostname, port } = new URL(baseUrl)
  const body = req.body === undefined ? undefined : typeof req.body === 'string' ? Buffer.from(req.body, 'utf8') : Buffer.from(req.body)
  const headers = [...(req.headers ?? [])]
  const has = (name: string) => headers.some(([k]) => k.toLowerCase() === name)
  if (!has('host')) headers.unshift(['Host', `${hostname}:${port}`])
  if (body !== undefined && !has('content-length') && !has('transfer-encoding')) headers.push(['Content-Length', String(body.length)])
  headers.push(['Connection', 'close'])
  const head = Buffer.from(`${req.method} ${req.path} HTTP/1.1\r\n${headers.map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`, 'latin1')

  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let settled = false
    const socket = net.connect({
      host: hostname,
      port: Number(port),
      ...(req.localAddress === undefined ? {} : { localAddress: req.localAddress }),
    })
    const finish = (err?: Error) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      socket.destroy()
      if (err !== undefined) return reject(err)
      try {
        resolve(parseReply(Buffer.concat(chunks)))
      } catch (e) {
        reject(e as Error)
      }
    }
    const timer = setTimeout(() => finish(new Error(`no reply within ${req.timeoutMs} ms (hang)`)), req.timeoutMs)
    socket.on('connect', () => {
      // A server may answer (413…) and close before a large body is written; the reply still counts.
      socket.write(body === undefined ? head : Buffer.concat([head, body]), () => undefined)
    })
    socket.on('data', (d: Buffer) => chunks.push(d))
    socket.on('error', (err) => {
      if (chunks.length > 0) finish()
      else finish(err)
    })
    socket.on('close', () => finish())
  })
}

/**
 * Starts a POST to `path` and hangs up before the body is complete: once with a chunked body and
 * once with a declared Content-Length, each cut after part of the body. Resolves when both
 * connections are closed (the server may still be reading).
 */
export async function hangUpMidBody(baseUrl: string, path: string): Promise<void> {
  const { hostname, port } = new URL(baseUrl)
  const head = `POST ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\n`
  const partial = '{"jsonrpc":"2.0","id":1,'
  const cuts = [
    `${head}Transfer-Encoding: chunked\r\n\r\n${partial.length.toString(16)}\r\n${partial}\r\n`,
    `${head}Content-Length: 4000\r\n\r\n${partial}`,
  ]
  for (const bytes of cuts) {
    await new Promise<void>((resolve, reject) => {
      const socket = net.connect(Number(port), hostname, () => {
        socket.write(bytes, () => setTimeout(() => socket.destroy(), 50))
      })
      socket.on('error', reject)
      socket.on('close', () => resolve())
    })
  }
}

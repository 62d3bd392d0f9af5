// WebSocket helpers of the end-to-end tests: a probe that records every frame of a real WebSocket
// connection, and a raw client over TCP that speaks just enough of RFC 6455 to do what a browser
// cannot: stay silent to pings (idle timeout), stop reading (slow consumer), send huge frames.
import { connect, type Socket } from 'node:net'

export type Frame = Record<string, any>

/** Polls until pred holds or the time is up. */
export async function until<T>(read: () => T | undefined | false, timeoutMs = 5_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const v = read()
    if (v !== undefined && v !== false) return v
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await Bun.sleep(10)
  }
}

/** A WebSocket client that keeps every parsed frame. */
export class WsProbe {
  readonly frames: Frame[] = []
  /** Each frame's text as received (frames[i] is texts[i] parsed), for measuring frame sizes. */
  readonly texts: string[] = []
  closeCode: number | undefined
  closeReason = ''
  private constructor(readonly socket: WebSocket) {
    socket.onmessage = (e) => {
      const text = String(e.data)
      this.texts.push(text)
      this.frames.push(JSON.parse(text) as Frame)
    }
    socket.onclose = (e) => {
      this.closeCode = e.code
      this.closeReason = e.reason
    }
  }

  static async open(baseUrl: string): Promise<WsProbe> {
    const socket = new WebSocket(`${baseUrl.replace('http', 'ws')}/api/v1/ws`)
    const probe = new WsProbe(socket)
    await new Promise<void>((resolve, reject) => {
      socket.onopen = () => resolve()
      socket.onerror = () => reject(new Error('websocket did not open'))
    })
    return probe
  }

  send(frame: unknown): void {
    this.socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame))
  }

  /** Subscribes and returns the confirmation. */
  async subscribe(topics: string[]): Promise<Frame> {
    const from = this.frames.length
    this.send({ op: 'subscribe', topics })
    return this.next((f) => f.op === 'subscribed', from)
  }

  /** The first frame at or after index `from` that matches. */
  next(pred: (f: Frame) => boolean, from = 0, timeoutMs = 5_000): Promise<Frame> {
    return until(() => this.frames.slice(from).find(pred), timeoutMs, 'a matching frame')
  }

  ofTopic(topic: string, from = 0): Frame[] {
    return this.frames.slice(from).filter((f) => f.topic === topic)
  }

  close(): void {
    this.socket.close()
  }
}

/** A minimal RFC 6455 client over TCP: never answers pings, can stop reading. */
export class RawWs {
  readonly texts: string[] = []
  pings = 0
  pongs = 0
  closeCode: number | undefined
  ended = false
  private buffer = Buffer.alloc(0)
  private constructor(private readonly socket: Socket) {}

  static async open(baseUrl: string): Promise<RawWs> {
    const url = new URL(baseUrl)
    const socket = connect(Number(url.port), url.hostname)
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve())
      socket.once('error', reject)
    })
    const raw = new RawWs(socket)
    socket.write(
      `GET /api/v1/ws HTTP/1.1\r\nHost: ${url.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`,
    )
    let head = ''
    await new Promise<void>((resolve, reject) => {
      const onData = (d: Buffer) => {
        const all = Buffer.concat([raw.buffer, d])
        const end = all.indexOf('\r\n\r\n')
        if (end < 0) {
          raw.buffer = all
          return
        }
        head = all.subarray(0, end).toString()
        raw.buffer = all.subarray(end + 4)
        socket.off('data', onData)
        if (!head.startsWith('HTTP/1.1 101')) reject(new Error(`upgrade refused: ${head}`))
        else resolve()
      }
      socket.on('data', onData)
    })
    socket.on('data', (d: Buffer) => raw.onData(d))
    socket.on('close', () => {
      raw.ended = true
    })
    socket.on('error', () => {
      raw.ended = true
    })
    raw.parse()
    return raw
  }

  /** Sends a masked text frame of any size. */
  sendText(text: string): void {
    const payload = Buffer.from(text)
    const len = payload.length
    const header =
      len < 126
        ? Buffer.from([0x81, 0x80 | len])
        : len < 65_536
          ? Buffer.from([0x81, 0x80 | 126, len >> 8, len & 0xff])
          : Buffer.concat([Buffer.from([0x81, 0x80 | 127]), u64(len)])
    const mask = Buffer.from([1, 2, 3, 4])
    const masked = Buffer.alloc(len)
    for (let i = 0; i < len; i++) masked[i] = payload[i]! ^ mask[i & 3]!
    this.socket.write(Buffer.concat([header, mask, masked]))
  }

  /** Sends a masked ping control frame. */
  sendPing(): void {
    this.socket.write(Buffer.from([0x89, 0x80, 1, 2, 3, 4]))
  }

  /** Stops reading: the server's sends back up (TCP backpressure). */
  pause(): void {
    this.socket.pause()
  }

  resume(): void {
    this.socket.resume()
  }

  frames(): Frame[] {
    return this.texts.map((t) => JSON.parse(t) as Frame)
  }

  destroy(): void {
    this.socket.destroy()
  }

  private onData(d: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, d])
    this.parse()
  }

  private parse(): void {
    for (;;) {
      const b = this.buffer
      if (b.length < 2) return
      const opcode = b[0]! & 0x0f
      let len = b[1]! & 0x7f
      let off = 2
      if (len === 126) {
        if (b.length < 4) return
        len = b.readUInt16BE(2)
        off = 4
      } else if (len === 127) {
        if (b.length < 10) return
        len = Number(b.readBigUInt64BE(2))
        off = 10
      }
      if (b.length < off + len) return
      const payload = b.subarray(off, off + len)
      this.buffer = b.subarray(off + len)
      if (opcode === 0x1) this.texts.push(payload.toString())
      else if (opcode === 0x9) this.pings++
      else if (opcode === 0xa) this.pongs++
      else if (opcode === 0x8) this.closeCode = payload.length >= 2 ? payload.readUInt16BE(0) : 1005
    }
  }
}

function u64(n: number): Buffer {
  const b = Buffer.alloc(8)
  b.writeBigUInt64BE(BigInt(n))
  return b
}

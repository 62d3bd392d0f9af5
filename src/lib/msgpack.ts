/**
 * Canonical msgpack encoder for signed bytes (docs/protocol.md#canonical-msgpack).
 *
 * Produces exactly what `@msgpack/msgpack` `encode()` produces with default options for the values
 * a JSON body can hold, so a client hashing with that library (or msgpack-python, or the
 * Hyperliquid SDKs) gets the same connection id as the server. Hand-written instead of msgpackr,
 * whose defaults are not canonical (map16 for small maps, float64 for large integers), and kept
 * small and allocation-free apart from the returned copy, because it runs once per signature check.
 *
 * Deliberate deviations from `@msgpack/msgpack` defaults, all for values JSON cannot carry:
 * - An object key whose value is `undefined` is omitted (an absent optional field, as
 *   `JSON.stringify` would send it); `@msgpack/msgpack` would write nil. Inside an array
 *   `undefined` becomes nil, again as `JSON.stringify` would send it.
 * - A bigint is written in the smallest integer format (`@msgpack/msgpack` refuses bigints).
 * - An integer-valued number beyond ±(2^53 - 1) throws RangeError: it has already lost precision,
 *   and `@msgpack/msgpack` (float64) and msgpack-python (uint64) disagree on it anyway.
 * - A string that is not well-formed UTF-16 (a lone surrogate) throws TypeError:
 *   `@msgpack/msgpack` itself encodes it two different ways depending on the string length.
 * - NaN, ±Infinity, functions, symbols, class instances (Date, Map, …) throw TypeError.
 */

/** Nesting limit, as in `@msgpack/msgpack` (root at depth 1); also stops runaway recursion. */
const MAX_DEPTH = 100

/** Children of a container at MAX_DEPTH would sit deeper than the limit. */
function tooDeep(): RangeError {
  return new RangeError(`msgpack: nesting deeper than ${MAX_DEPTH}`)
}

const INITIAL_SIZE = 2048
const MAX_RETAINED = 1 << 20

/** One growable output buffer; reused across calls so the hot path does not allocate. */
class CanonicalWriter {
  buf = new Uint8Array(INITIAL_SIZE)
  view = new DataView(this.buf.buffer)
  pos = 0
  /** Set while an encode is running, so a re-entrant call (e.g. from a getter) gets its own writer. */
  busy = false

  private ensure(n: number): void {
    const need = this.pos + n
    if (need <= this.buf.length) return
    let size = this.buf.length * 2
    while (size < need) size *= 2
    const next = new Uint8Array(size)
    next.set(this.buf.subarray(0, this.pos))
    this.buf = next
    this.view = new DataView(next.buffer)
  }

  encode(value: unknown): Uint8Array {
    this.pos = 0
    this.write(value, 1)
    const out = this.buf.slice(0, this.pos)
    // Do not pin a huge buffer after one oversized value; normal actions are a few hundred bytes.
    if (this.buf.length > MAX_RETAINED) this.reset()
    return out
  }

  /** Drops the buffer back to its initial size. */
  reset(): void {
    this.buf = new Uint8Array(INITIAL_SIZE)
    this.view = new DataView(this.buf.buffer)
    this.pos = 0
  }

  private write(value: unknown, depth: number): void {
    switch (typeof value) {
      case 'string':
        this.writeString(value)
        return
      case 'number':
        this.writeNumber(value)
        return
      case 'boolean':
        this.ensure(1)
        this.buf[this.pos++] = value ? 0xc3 : 0xc2
        return
      case 'bigint':
        this.writeBigInt(value)
        return
      case 'object':
        if (value === null) {
          this.ensure(1)
          this.buf[this.pos++] = 0xc0
          return
        }
        if (Array.isArray(value)) {
          this.writeArray(value, depth)
          return
        }
        if (value instanceof Uint8Array) {
          this.writeBinary(value)
          return
        }
        {
          const proto: unknown = Object.getPrototypeOf(value)
          if (proto === Object.prototype || proto === null) {
            this.writeMap(value as Record<string, unknown>, depth)
            return
          }
        }
        throw new TypeError(`msgpack: cannot encode ${Object.prototype.toString.call(value)}`)
      default:
        throw new TypeError(`msgpack: cannot encode a value of type ${typeof value}`)
    }
  }

  private writeNumber(n: number): void {
    if (Number.isInteger(n)) {
      if (!Number.isSafeInteger(n)) throw new RangeError(`msgpack: integer ${n} is beyond 2^53 and has lost precision`)
      this.writeInt(n)
      return
    }
    if (!Number.isFinite(n)) throw new TypeError(`msgpack: cannot encode ${n}`)
    this.ensure(9)
    this.buf[this.pos] = 0xcb
    this.view.setFloat64(this.pos + 1, n)
    this.pos += 9
  }

  /** Smallest integer format for a safe integer (same thresholds as `@msgpack/msgpack`). */
  private writeInt(n: number): void {
    this.ensure(9)
    const b = this.buf
    const p = this.pos
    if (n >= 0) {
      // `-0` lands here too and is written as 0, as `@msgpack/msgpack` does.
      if (n < 0x80) {
        b[p] = n
        this.pos = p + 1
      } else if (n < 0x100) {
        b[p] = 0xcc
        b[p + 1] = n
        this.pos = p + 2
      } else if (n < 0x10000) {
        b[p] = 0xcd
        this.view.setUint16(p + 1, n)
        this.pos = p + 3
      } else if (n < 0x100000000) {
        b[p] = 0xce
        this.view.setUint32(p + 1, n)
        this.pos = p + 5
      } else {
        b[p] = 0xcf
        // Split into two 32-bit halves: exact for safe integers, no bigint allocation.
        this.view.setUint32(p + 1, Math.floor(n / 0x100000000))
        this.view.setUint32(p + 5, n >>> 0)
        this.pos = p + 9
      }
    } else if (n >= -0x20) {
      b[p] = 0xe0 | (n + 0x20)
      this.pos = p + 1
    } else if (n >= -0x80) {
      b[p] = 0xd0
      this.view.setInt8(p + 1, n)
      this.pos = p + 2
    } else if (n >= -0x8000) {
      b[p] = 0xd1
      this.view.setInt16(p + 1, n)
      this.pos = p + 3
    } else if (n >= -0x80000000) {
      b[p] = 0xd2
      this.view.setInt32(p + 1, n)
      this.pos = p + 5
    } else {
      b[p] = 0xd3
      this.view.setBigInt64(p + 1, BigInt(n))
      this.pos = p + 9
    }
  }

  private writeBigInt(v: bigint): void {
    // Values that fit the uint32/int32 formats go through the number path so the thresholds are
    // shared; only the 64-bit formats need bigint arithmetic.
    if (v >= -0x80000000n && v < 0x100000000n) {
      this.writeInt(Number(v))
      return
    }
    this.ensure(9)
    if (v > 0n) {
      if (v > 0xffffffffffffffffn) throw new RangeError(`msgpack: integer ${v} does not fit uint64`)
      this.buf[this.pos] = 0xcf
      this.view.setBigUint64(this.pos + 1, v)
    } else {
      if (v < -0x8000000000000000n) throw new RangeError(`msgpack: integer ${v} does not fit int64`)
      this.buf[this.pos] = 0xd3
      this.view.setBigInt64(this.pos + 1, v)
    }
    this.pos += 9
  }

  private writeString(s: string): void {
    const len = s.length
    // Worst case: 5 header bytes and 3 UTF-8 bytes per UTF-16 unit.
    this.ensure(5 + len * 3)
    const b = this.buf
    if (len < 32) {
      // Fast path for short ASCII (keys, enums, decimal strings): fixstr header is known up front.
      let p = this.pos + 1
      let i = 0
      for (; i < len; i++) {
        const c = s.charCodeAt(i)
        if (c >= 0x80) break
        b[p++] = c
      }
      if (i === len) {
        b[this.pos] = 0xa0 | len
        this.pos = p
        return
      }
    }
    // General path: the header depends on the UTF-8 length, so count it first.
    const byteLength = utf8Length(s)
    this.writeHeader(byteLength, 0xa0, 32, 0xd9, 0xda, 0xdb)
    if (byteLength === len) {
      let p = this.pos
      for (let i = 0; i < len; i++) b[p++] = s.charCodeAt(i)
      this.pos = p
    } else {
      if (!s.isWellFormed()) throw new TypeError('msgpack: string contains a lone UTF-16 surrogate')
      TEXT_ENCODER.encodeInto(s, b.subarray(this.pos))
      this.pos += byteLength
    }
  }

  private writeBinary(v: Uint8Array): void {
    const n = v.length
    this.ensure(5 + n)
    if (n < 0x100) {
      this.buf[this.pos++] = 0xc4
      this.buf[this.pos++] = n
    } else if (n < 0x10000) {
      this.buf[this.pos] = 0xc5
      this.view.setUint16(this.pos + 1, n)
      this.pos += 3
    } else {
      this.buf[this.pos] = 0xc6
      this.view.setUint32(this.pos + 1, n)
      this.pos += 5
    }
    this.buf.set(v, this.pos)
    this.pos += n
  }

  private writeArray(a: unknown[], depth: number): void {
    const n = a.length
    if (n > 0 && depth >= MAX_DEPTH) throw tooDeep()
    this.writeHeader(n, 0x90, 16, -1, 0xdc, 0xdd)
    for (let i = 0; i < n; i++) {
      const item = a[i]
      // Holes and `undefined` elements become nil, as JSON.stringify turns them into null.
      if (item === undefined) {
        this.ensure(1)
        this.buf[this.pos++] = 0xc0
      } else {
        this.write(item, depth + 1)
      }
    }
  }

  private writeMap(o: Record<string, unknown>, depth: number): void {
    // Object.keys order is the order JSON.parse inserted the keys in (integer-like keys first,
    // which is also what every JS client sees), so "the order the client sent" is preserved.
    const keys = Object.keys(o)
    let count = 0
    for (let i = 0; i < keys.length; i++) if (o[keys[i] as string] !== undefined) count++
    if (count > 0 && depth >= MAX_DEPTH) throw tooDeep()
    this.writeHeader(count, 0x80, 16, -1, 0xde, 0xdf)
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i] as string
      const v = o[k]
      if (v === undefined) continue
      this.writeString(k)
      this.write(v, depth + 1)
    }
  }

  /**
   * Length header shared by str/array/map: fix form below `fixLimit`, then the 8-bit form (if the
   * type has one, else -1), 16-bit and 32-bit forms.
   */
  private writeHeader(n: number, fix: number, fixLimit: number, c8: number, c16: number, c32: number): void {
    this.ensure(5)
    if (n < fixLimit) {
      this.buf[this.pos++] = fix | n
    } else if (c8 >= 0 && n < 0x100) {
      this.buf[this.pos++] = c8
      this.buf[this.pos++] = n
    } else if (n < 0x10000) {
      this.buf[this.pos] = c16
      this.view.setUint16(this.pos + 1, n)
      this.pos += 3
    } else if (n <= 0xffffffff) {
      this.buf[this.pos] = c32
      this.view.setUint32(this.pos + 1, n)
      this.pos += 5
    } else {
      throw new RangeError(`msgpack: length ${n} too large`)
    }
  }
}

const TEXT_ENCODER = new TextEncoder()

/** UTF-8 byte length of a string; a surrogate pair counts 4, a lone surrogate 3 (refused later). */
function utf8Length(s: string): number {
  let n = 0
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 0x80) n += 1
    else if (c < 0x800) n += 2
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4
      i++
    } else n += 3
  }
  return n
}

const shared = new CanonicalWriter()

/**
 * Canonical msgpack bytes of a JSON-like value (docs/protocol.md#canonical-msgpack); identical to
 * `@msgpack/msgpack` `encode(value)` for JSON data. Throws TypeError/RangeError for values with no
 * canonical form.
 */
export function encodeCanonical(value: unknown): Uint8Array {
  if (value === undefined) throw new TypeError('msgpack: cannot encode undefined')
  const w = shared.busy ? new CanonicalWriter() : shared
  w.busy = true
  try {
    return w.encode(value)
  } finally {
    w.busy = false
  }
}

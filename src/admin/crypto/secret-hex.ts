// Hex text of secrets (private keys, the KEK) as bytes, never as JavaScript strings
// (docs/admin.md#keys). A JS string cannot be wiped: it lives in the heap, possibly interned or
// copied by the engine, until the collector reuses its memory. So a secret that arrives as hex text
// (a decrypted upload, a key file, the KEK file) is decoded here straight from its ASCII bytes into
// a Uint8Array, which the caller zeroes once done; and a secret written as hex is encoded into
// ASCII bytes the same way.

/** Value of an ASCII hex digit, or -1. */
function nibble(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10
  if (c >= 0x41 && c <= 0x46) return c - 0x41 + 10
  return -1
}

/** ASCII whitespace: space, tab, LF, VT, FF, CR. */
const isSpace = (c: number) => c === 0x20 || (c >= 0x09 && c <= 0x0d)

/**
 * Decodes `text`, the ASCII (or UTF-8) bytes of exactly `byteLength` bytes as hex, with an
 * optional `0x` prefix (lowercase x, as everywhere in the project) and surrounding ASCII whitespace, into a new array. Undefined when
 * the text is anything else; no string is made of it either way, and `text` is left as it is.
 */
export function secretFromHexBytes(text: Uint8Array, byteLength: number): Uint8Array | undefined {
  let start = 0
  let end = text.length
  while (start < end && isSpace(text[start]!)) start++
  while (end > start && isSpace(text[end - 1]!)) end--
  if (end - start >= 2 && text[start] === 0x30 && text[start + 1] === 0x78) start += 2
  if (end - start !== byteLength * 2) return undefined
  const out = new Uint8Array(byteLength)
  for (let i = 0; i < byteLength; i++) {
    const hi = nibble(text[start + 2 * i]!)
    const lo = nibble(text[start + 2 * i + 1]!)
    if (hi < 0 || lo < 0) {
      out.fill(0)
      return undefined
    }
    out[i] = (hi << 4) | lo
  }
  return out
}

const HEX_DIGITS = new Uint8Array([...'0123456789abcdef'].map((c) => c.charCodeAt(0)))

/** The lowercase hex of `secret` as ASCII bytes (no prefix), plus `suffix` bytes; the caller zeroes it after use. */
export function secretToHexBytes(secret: Uint8Array, suffix: Uint8Array = new Uint8Array(0)): Uint8Array {
  const out = new Uint8Array(secret.length * 2 + suffix.length)
  for (let i = 0; i < secret.length; i++) {
    out[2 * i] = HEX_DIGITS[secret[i]! >> 4]!
    out[2 * i + 1] = HEX_DIGITS[secret[i]! & 0x0f]!
  }
  out.set(suffix, secret.length * 2)
  return out
}

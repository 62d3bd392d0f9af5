// Display helpers. Amounts stay the node's decimal strings (exact); they are only grouped for reading.
import { subtractDecimal } from '../client/ws-client.ts'

/** a + b for decimal strings, exact. */
export function addDecimal(a: string, b: string): string {
  return subtractDecimal(a, b.startsWith('-') ? b.slice(1) : `-${b}`)
}

/** "1234567.5" → "1,234,567.5"; null → "—". */
export function amount(value: string | null | undefined): string {
  if (value === null || value === undefined) return '—'
  const negative = value.startsWith('-')
  const [whole = '', fraction] = (negative ? value.slice(1) : value).split('.')
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  return `${negative ? '-' : ''}${grouped}${fraction === undefined ? '' : `.${fraction}`}`
}

/** A block time in UTC, "2026-11-26 15:24:53". */
export function time(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—'
  return new Date(ms).toISOString().replace('T', ' ').slice(0, 19)
}

/** The time of day in UTC with milliseconds' precision cut, "15:24:53". */
export function clock(ms: number): string {
  return new Date(ms).toISOString().slice(11, 19)
}

/** 0x1234…abcd for a long hex string. */
export function short(hex: string, keep = 6): string {
  return hex.length <= keep * 2 + 3 ? hex : `${hex.slice(0, keep + 2)}…${hex.slice(-keep)}`
}

/** The sign class of a signed decimal string: 'pos', 'neg' or ''. */
export function signClass(value: string | null | undefined): string {
  if (value === null || value === undefined || /^-?0(\.0*)?$/.test(value)) return ''
  return value.startsWith('-') ? 'neg' : 'pos'
}

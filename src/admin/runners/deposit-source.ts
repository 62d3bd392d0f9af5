// Where the bridge_deposit runner learns about deposits: a pluggable source. A real bridge watches
// a chain; this build reads a JSON document from a file or over HTTP (--deposit-source).

import { readFile } from 'node:fs/promises'
import { type Static, Type } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { DECIMAL_MAX_LENGTH, decimalPattern } from '../../lib/decimal.ts'

/** A deposit to credit, as CreditDeposit carries it. */
export interface Deposit {
  readonly deposit_id: string
  readonly account: string
  readonly amount: string
  readonly source_chain?: string | undefined
}

/** Lists deposits that happened; it may keep listing credited ones (the runner remembers those). */
export interface DepositSource {
  readonly name: string
  deposits(signal: AbortSignal): Promise<readonly Deposit[]>
}

/**
 * The document both sources read: `{"deposits": [{"deposit_id": "0xabc…:0", "account": "0x…",
 * "amount": "250.5", "source_chain"?: "arbitrum"}]}`; amounts are decimal strings (SCALE_6).
 */
export const DepositDocument = Type.Object({
  deposits: Type.Array(
    Type.Object({
      deposit_id: Type.String({ minLength: 1, maxLength: 128 }),
      account: Type.String({ pattern: '^0x[0-9a-fA-F]{40}$' }),
      amount: Type.String({ pattern: decimalPattern(), maxLength: DECIMAL_MAX_LENGTH }),
      source_chain: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    }),
    { maxItems: 10_000 },
  ),
})
/** The parsed {@link DepositDocument}. */
export type DepositDocument = Static<typeof DepositDocument>

const FETCH_TIMEOUT_MS = 5_000

function parseDocument(doc: unknown, where: string): readonly Deposit[] {
  if (!Value.Check(DepositDocument, doc)) {
    const first = Value.Errors(DepositDocument, doc).First()
    throw new Error(`deposit source ${where} holds an unexpected document: ${first?.path ?? ''} ${first?.message ?? ''}`)
  }
  return doc.deposits
}

/** Re-reads a JSON file every cycle; a missing file means no deposits yet. */
export class FileDepositSource implements DepositSource {
  readonly name: string
  constructor(private readonly path: string) {
    this.name = `file ${path}`
  }

  async deposits(): Promise<readonly Deposit[]> {
    let text: string
    try {
      text = await readFile(this.path, 'utf8')
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return []
      throw err
    }
    return parseDocument(JSON.parse(text), this.name)
  }
}

/** GETs the document from a URL every cycle. */
export class HttpDepositSource implements DepositSource {
  readonly name: string
  constructor(private readonly url: string) {
    this.name = `http ${url}`
  }

  async deposits(signal: AbortSignal): Promise<readonly Deposit[]> {
    const res = await fetch(this.url, { signal: AbortSignal.any([signal, AbortSignal.timeout(FETCH_TIMEOUT_MS)]) })
    if (!res.ok) throw new Error(`deposit source ${this.url} answered HTTP ${res.status}`)
    return parseDocument(await res.json(), this.name)
  }
}

/** The source named by --deposit-source: an http(s) URL or a file path. */
export function depositSourceFor(spec: string): DepositSource {
  return /^https?:\/\//.test(spec) ? new HttpDepositSource(spec) : new FileDepositSource(spec)
}

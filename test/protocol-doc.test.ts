/**
 * docs/protocol.md cannot drift: the values of its worked example are read from the page and
 * checked against test/fixtures/vectors.json (made with independent libraries) and recomputed with
 * the project's own code; its tables of user-signed types and of the development network are
 * checked against the action registry and the dev genesis.
 */
import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { bytesToHex, concatBytes, hexToBytes, u64be } from '../src/lib/hex.ts'
import { keccak256 } from '../src/lib/keccak.ts'
import { encodeCanonical } from '../src/lib/msgpack.ts'
import { checksumAddress } from '../src/node/dev-banner.ts'
import { DEV_ADDRESSES, devGenesis } from '../src/node/dev-genesis.ts'
import { ACTION_KINDS } from '../src/wire/actions.ts'
import { domainSeparator, encodeType, hashStruct, typedDataDigest } from '../src/wire/eip712.ts'
import {
  addressOfPrivateKey,
  l1ConnectionId,
  l1Digest,
  parseSignature,
  signDigest,
  sourceForNetwork,
  txHash,
  type WireSignature,
} from '../src/wire/signing.ts'

const ROOT = join(import.meta.dir, '..')
const doc = await Bun.file(join(ROOT, 'docs/protocol.md')).text()
const vectors = ((await Bun.file(join(ROOT, 'test/fixtures/vectors.json')).json()) as { vectors: Record<string, unknown>[] }).vectors
const vector = vectors.find((v) => v.name === 'place_order')!

/** The text of a `## heading` section, up to the next `## ` heading. */
function section(heading: string): string {
  const start = doc.indexOf(`\n## ${heading}\n`)
  if (start < 0) throw new Error(`docs/protocol.md has no "## ${heading}" section`)
  const end = doc.indexOf('\n## ', start + 4)
  return doc.slice(start, end < 0 ? undefined : end)
}

/** Fenced code blocks of a text, each with the paragraph just before it (its label). */
function fencedBlocks(text: string): { label: string; body: string }[] {
  const lines = text.split('\n')
  const blocks: { label: string; body: string }[] = []
  let para: string[] = []
  let lastPara: string[] = []
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    if (line.startsWith('```')) {
      const body: string[] = []
      for (i++; i < lines.length && !lines[i]!.startsWith('```'); i++) body.push(lines[i]!)
      blocks.push({ label: (para.length > 0 ? para : lastPara).join(' '), body: body.join('\n') })
      para = []
      lastPara = []
    } else if (line.trim() === '') {
      if (para.length > 0) lastPara = para
      para = []
    } else {
      para.push(line)
    }
  }
  return blocks
}

/**
 * The worked example's values by name: a block's label names its values as (`name`); a block
 * naming several holds one per line, in the order named.
 */
function workedExample(): Map<string, string> {
  const values = new Map<string, string>()
  for (const { label, body } of fencedBlocks(section('Worked example'))) {
    const names = [...label.matchAll(/\(`([a-z][a-z0-9_]*)`[),]/g)].map((m) => m[1]!)
    if (names.length === 1) values.set(names[0]!, body.trim())
    else if (names.length > 1) {
      const rows = body.trim().split('\n')
      expect(rows.length).toBe(names.length)
      names.forEach((n, i) => {
        values.set(n, rows[i]!.trim())
      })
    }
  }
  return values
}

describe('docs/protocol.md worked example', () => {
  const ex = workedExample()
  const get = (name: string): string => {
    const v = ex.get(name)
    if (v === undefined) throw new Error(`the worked example shows no (\`${name}\`) value`)
    return v
  }

  test('shows every value of the chain, labelled', () => {
    expect([...ex.keys()].sort()).toEqual(
      [
        'action',
        'agent_struct_hash',
        'connection_id',
        'domain_separator',
        'eip712_digest',
        'msgpack_breakdown',
        'msgpack_hex',
        'nonce',
        'private_key',
        'request',
        'signature',
        'signer',
        'source',
        'tx_hash',
      ].sort(),
    )
  })

  test('its values are the place_order vector', () => {
    for (const key of ['private_key', 'signer', 'source', 'msgpack_hex', 'connection_id', 'eip712_digest', 'tx_hash']) {
      expect(`${key}: ${get(key)}`).toBe(`${key}: ${vector[key] as string}`)
    }
    expect(Number(get('nonce'))).toBe(vector.nonce as number)
    // The action with its keys in the same order (the order is signed).
    expect(JSON.stringify(JSON.parse(get('action')))).toBe(JSON.stringify(vector.action))
    expect(JSON.parse(get('signature'))).toEqual(vector.signature)
  })

  test('the byte-by-byte breakdown adds up to the msgpack bytes', () => {
    const hex = get('msgpack_breakdown')
      .split('\n')
      .map((line) =>
        line
          .trim()
          .split(/\s{2,}/)[0]!
          .replace(/ /g, ''),
      )
      .join('')
    expect(`0x${hex}`).toBe(get('msgpack_hex'))
    expect(doc).toContain(`${hexToBytes(get('msgpack_hex')).length} bytes`)
  })

  test('the project code recomputes every step', () => {
    const action = JSON.parse(get('action')) as Record<string, unknown>
    const nonce = Number(get('nonce'))
    expect(sourceForNetwork('dev')).toBe(get('source') as 'b')
    const msgpack = encodeCanonical(action)
    expect(bytesToHex(msgpack)).toBe(get('msgpack_hex'))
    expect(bytesToHex(keccak256(concatBytes(msgpack, u64be(nonce), Uint8Array.of(0))))).toBe(get('connection_id'))
    expect(bytesToHex(l1ConnectionId(action, nonce))).toBe(get('connection_id'))
    const domain = domainSeparator({
      name: 'Exchange',
      version: '1',
      chainId: 1337,
      verifyingContract: '0x0000000000000000000000000000000000000000',
    })
    expect(bytesToHex(domain)).toBe(get('domain_separator'))
    const agent = [
      { name: 'source', type: 'string' },
      { name: 'connectionId', type: 'bytes32' },
    ]
    const structHash = hashStruct('Agent', agent, { source: get('source'), connectionId: get('connection_id') })
    expect(bytesToHex(structHash)).toBe(get('agent_struct_hash'))
    expect(bytesToHex(typedDataDigest(domain, structHash))).toBe(get('eip712_digest'))
    const digest = l1Digest(action, nonce, get('source') as 'b')
    expect(bytesToHex(digest)).toBe(get('eip712_digest'))
    expect(addressOfPrivateKey(get('private_key'))).toBe(get('signer').toLowerCase())
    const signature = signDigest(get('private_key'), digest)
    expect(signature).toEqual(JSON.parse(get('signature')) as WireSignature)
    const parsed = parseSignature(signature)
    if (!parsed.ok) throw new Error(parsed.message)
    expect(txHash(digest, parsed.r, parsed.s, parsed.v)).toBe(get('tx_hash'))
  })

  test('the request carries exactly the action, nonce and signature shown', () => {
    const request = JSON.parse(get('request')) as { jsonrpc: string; method: string; params: Record<string, unknown> }
    expect(request.jsonrpc).toBe('2.0')
    expect(request.method).toBe('action')
    expect(Object.keys(request.params)).toEqual(['action', 'nonce', 'signature'])
    expect(JSON.stringify(request.params.action)).toBe(JSON.stringify(JSON.parse(get('action'))))
    expect(request.params.nonce).toBe(Number(get('nonce')))
    expect(request.params.signature).toEqual(JSON.parse(get('signature')))
  })

  test('the signer is development account #1 of the development network table', () => {
    expect(get('signer').toLowerCase()).toBe(DEV_ADDRESSES[1])
    expect(section('Development network')).toContain(get('private_key'))
  })
})

describe('docs/protocol.md tables', () => {
  test("the user-signed type strings are the registry's", () => {
    const text = section('User-signed actions')
    const userSigned = ACTION_KINDS.filter((k) => k.auth === 'user_signed_master')
    expect(userSigned.length).toBeGreaterThan(0)
    for (const kind of userSigned) {
      expect(text).toContain(`| \`${kind.name}\` | \`${encodeType(`Perpd:${kind.name}`, kind.typedFields ?? [])}\` |`)
    }
    const listed = [...text.matchAll(/\| `Perpd:([A-Za-z]+)\(/g)].map((m) => m[1])
    expect(listed.sort()).toEqual(userSigned.map((k) => k.name).sort())
  })

  test('the development accounts and markets are the dev genesis', () => {
    const text = section('Development network')
    const genesis = devGenesis()
    DEV_ADDRESSES.forEach((address, i) => {
      const account = genesis.accounts.find((a) => a.address === address)!
      const balance = Number(account.balance).toLocaleString('en-US')
      expect(text).toContain(`| ${i} | \`${checksumAddress(address)}\` | ${account.roles.join(', ')} | ${balance} |`)
    })
    for (const m of genesis.markets) {
      expect(text).toContain(
        `| ${m.market_id} | \`${m.symbol}\` | ${m.routing === 'native' ? 'native' : 'external peg'} | ${m.price_decimals} / ${m.size_decimals} | ${m.max_leverage} | ${m.maker_fee_bps} / ${m.taker_fee_bps} | ${m.mark_price} |`,
      )
    }
    expect(text).toContain(`| network name | \`${genesis.network}\``)
    expect(text).toContain(`| genesis time | ${genesis.genesis_time_ms} `)
  })

  test('the integer example of the msgpack rules is what the encoder writes', () => {
    const m = /`(\d+)`\s+is `0x([0-9a-f]{2}) ([0-9a-f]+)`/.exec(section('Canonical msgpack'))
    expect(m).not.toBeNull()
    expect(bytesToHex(encodeCanonical(Number(m![1])))).toBe(`0x${m![2]}${m![3]}`)
  })
})

/** GitHub's anchor of a heading: lowercase, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\- ]/gu, '')
    .replace(/ /g, '-')
}

/** The anchors of a markdown file's headings (outside fenced code). */
async function anchorsOf(path: string): Promise<Set<string>> {
  const out = new Set<string>()
  let fenced = false
  for (const line of (await Bun.file(path).text()).split('\n')) {
    if (line.startsWith('```')) fenced = !fenced
    else if (!fenced) {
      const m = /^#+\s+(.*)$/.exec(line)
      if (m !== null) out.add(slug(m[1]!))
    }
  }
  return out
}

describe('stable anchors', () => {
  test('docs/protocol.md has the sections code comments cite', async () => {
    const anchors = await anchorsOf(join(ROOT, 'docs/protocol.md'))
    for (const a of [
      'envelope',
      'canonical-msgpack',
      'l1-actions',
      'user-signed-actions',
      'transaction-hash',
      'nonces',
      'refusals-and-kept-rejects',
      'decimal-strings',
      'development-network',
      'worked-example',
    ]) {
      expect(`#${a} ${anchors.has(a)}`).toBe(`#${a} true`)
    }
  })

  test('every docs/<page>.md#anchor cited in src/, test/, scripts/ and examples/ exists', async () => {
    const cache = new Map<string, Set<string>>()
    const missing: string[] = []
    for (const dir of ['src', 'test', 'scripts', 'examples']) {
      for await (const file of new Bun.Glob(`${dir}/**/*.ts`).scan(ROOT)) {
        const text = await Bun.file(join(ROOT, file)).text()
        for (const m of text.matchAll(/docs\/([a-z0-9-]+\.md)#([a-z0-9_-]+)/g)) {
          const page = join(ROOT, 'docs', m[1]!)
          if (!cache.has(page)) cache.set(page, (await Bun.file(page).exists()) ? await anchorsOf(page) : new Set())
          if (!cache.get(page)!.has(m[2]!)) missing.push(`${file}: docs/${m[1]}#${m[2]}`)
        }
      }
    }
    expect(missing).toEqual([])
  })
})

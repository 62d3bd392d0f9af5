// The start-up printout of `perpd --dev`: the development accounts and their private keys, the way
// Anvil prints them, so a developer can sign from a wallet or a script without looking them up.
// These are the public Anvil/Hardhat test keys (docs/protocol.md#development-network).
import { keccak256 } from '../lib/keccak.ts'
import { createLogger, type Logger, loggingSettings } from '../lib/log.ts'
import type { Genesis } from '../wire/genesis.ts'
import { DEV_ADDRESSES } from './dev-genesis.ts'

/** The mnemonic the development keys come from (derivation path m/44'/60'/0'/0/i). */
export const DEV_MNEMONIC = 'test test test test test test test test test test test junk'

/**
 * Private keys of DEV_ADDRESSES, index for index: the first ten accounts of DEV_MNEMONIC, which
 * Anvil, Hardhat and Foundry print on every start. Public knowledge; never hold real funds with them.
 */
export const DEV_PRIVATE_KEYS = [
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
  '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6',
  '0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a',
  '0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba',
  '0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e',
  '0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356',
  '0xdbda1821b80551c9d65939329250298aa3472ba22feea921c0cf5d620ea67b97',
  '0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6',
] as const

/** EIP-55 mixed-case checksum form of a lowercase 0x address (what wallets and Anvil print). */
export function checksumAddress(address: string): string {
  const hex = address.slice(2).toLowerCase()
  const hash = keccak256(new TextEncoder().encode(hex))
  let out = '0x'
  for (let i = 0; i < 40; i++) {
    const nibble = ((hash[i >> 1] as number) >> (i % 2 === 0 ? 4 : 0)) & 0xf
    out += nibble >= 8 ? (hex[i] as string).toUpperCase() : (hex[i] as string)
  }
  return out
}

/** "1000000" -> "1,000,000"; a fraction is kept as it is. */
function groupThousands(decimal: string): string {
  const [int, frac] = decimal.split('.') as [string, string | undefined]
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  return frac === undefined ? grouped : `${grouped}.${frac}`
}

/** A development account the genesis holds, with its key (public test keys). */
interface DevAccount {
  readonly index: number
  readonly address: string
  readonly privateKey: string
  readonly balance: string
  readonly roles: readonly string[]
}

/** Every development account the genesis holds, in index order. */
function devAccounts(genesis: Genesis): DevAccount[] {
  const out: DevAccount[] = []
  DEV_ADDRESSES.forEach((address, index) => {
    const entry = genesis.accounts.find((a) => a.address.toLowerCase() === address)
    if (entry !== undefined)
      out.push({
        index,
        address: checksumAddress(address),
        privateKey: DEV_PRIVATE_KEYS[index]!,
        balance: entry.balance,
        roles: entry.roles,
      })
  })
  return out
}

const WARNING = 'WARNING: everyone knows these private keys. Never send real funds to these addresses or use them on a real network.'

/**
 * The text block `perpd --dev` prints on start: every development account the genesis holds, with
 * its balance and roles, then the private keys, under a warning that they are public test keys.
 * Empty when the genesis holds none of them (e.g. `--dev --genesis FILE` with other accounts).
 */
export function devBanner(genesis: Genesis): string {
  const accounts = devAccounts(genesis)
  if (accounts.length === 0) return ''
  const rule = '=================='
  const lines = [
    '',
    `Development network "${genesis.network}": the accounts below use the public Anvil/Hardhat test keys`,
    `(mnemonic "${DEV_MNEMONIC}").`,
    WARNING,
    '',
    'Available accounts',
    rule,
    '',
  ]
  for (const a of accounts) lines.push(`(${a.index}) ${a.address} (${groupThousands(a.balance)} USD) ${a.roles.join(', ')}`)
  lines.push('', 'Private keys', rule, '')
  for (const a of accounts) lines.push(`(${a.index}) ${a.privateKey}`)
  lines.push('', 'Sign with them from TypeScript: see examples/place-order.ts (npm run example).', '')
  return `${lines.join('\n')}\n`
}

/**
 * Prints the development accounts on start: {@link devBanner} as plain text when the logs are plain
 * (a terminal), or one `development accounts` log line carrying them when the logs are JSON lines,
 * so a log collector still reads one JSON object per line.
 */
export function printDevBanner(genesis: Genesis, log: Logger = createLogger('dev')): void {
  if (loggingSettings().format === 'json') {
    const accounts = devAccounts(genesis)
    if (accounts.length > 0) log.warn('development accounts', { warning: WARNING, mnemonic: DEV_MNEMONIC, accounts })
    return
  }
  const text = devBanner(genesis)
  if (text !== '') process.stdout.write(text)
}

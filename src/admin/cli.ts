// The operator's command line over the admin API: log in with a key file (the CLI signs the
// challenge), upload keys encrypted client-side with ECIES, list keys, bind services. Nobody has
// to hand-craft a signature or a ciphertext.
import { readFileSync } from 'node:fs'
import { bytesToHex, hexToBytes } from '../lib/hex.ts'
import { eciesEncrypt } from '../wire/ecies.ts'
import { addressOfPrivateKey, adminLoginMessage, eip191Digest, signDigest } from '../wire/signing.ts'
import { AdminApiError, AdminClient } from './admin-client.ts'
import { isServiceName, SERVICE_NAMES } from './bindings.ts'
import { deleteSession, readSession, sessionFile, writeSession } from './cli-session.ts'
import { ADMIN_USAGE, cliConfigDir, DEFAULT_ADMIN_URL } from './config.ts'
import { errorMessage } from './log.ts'

const FLAGS_WITH_VALUE = new Set(['--admin-url', '--token', '--key-file', '--label', '--config-dir'])
const BOOLEAN_FLAGS = new Set(['--disabled'])

/** A command line the client cannot run. */
class UsageError extends Error {}

interface Parsed {
  readonly words: string[]
  readonly flags: Map<string, string>
}

function parse(argv: readonly string[]): Parsed {
  const words: string[] = []
  const flags = new Map<string, string>()
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (!arg.startsWith('--')) {
      words.push(arg)
      continue
    }
    const eq = arg.indexOf('=')
    const name = eq > 0 ? arg.slice(0, eq) : arg
    if (BOOLEAN_FLAGS.has(name)) {
      flags.set(name, 'true')
      continue
    }
    if (!FLAGS_WITH_VALUE.has(name)) throw new UsageError(`unknown option ${arg}`)
    const value = eq > 0 ? arg.slice(eq + 1) : argv[++i]
    if (value === undefined) throw new UsageError(`${name} needs a value`)
    flags.set(name, value)
  }
  return { words, flags }
}

/** Reads a private key file (64 hex characters, optional 0x, surrounding whitespace ignored). */
function readKeyFile(path: string): string {
  const text = readFileSync(path, 'utf8').trim()
  if (!/^(0x)?[0-9a-fA-F]{64}$/.test(text)) throw new UsageError(`${path} must hold a private key as 64 hex characters`)
  return text.startsWith('0x') ? text.slice(2) : text
}

function required(flags: Map<string, string>, name: string): string {
  const v = flags.get(name)
  if (v === undefined) throw new UsageError(`${name} is required`)
  return v
}

/** Runs a client command; returns the process exit code. */
export async function runCli(argv: readonly string[]): Promise<number> {
  try {
    const { words, flags } = parse(argv)
    const configDir = flags.get('--config-dir') ?? cliConfigDir()
    const stored = readSession(configDir)
    const adminUrl = (flags.get('--admin-url') ?? stored?.admin_url ?? DEFAULT_ADMIN_URL).replace(/\/+$/, '')
    const token = flags.get('--token') ?? (stored !== undefined && stored.admin_url === adminUrl ? stored.token : undefined)
    const client = new AdminClient(adminUrl, token)
    const [command, sub, ...rest] = words
    switch (command) {
      case 'login':
        return await login(adminUrl, readKeyFile(required(flags, '--key-file')), configDir)
      case 'logout':
        console.log(deleteSession(configDir) ? `removed ${sessionFile(configDir)}` : 'no stored session')
        return 0
      case 'keys':
        if (sub === 'upload') return await uploadKey(client, required(flags, '--label'), readKeyFile(required(flags, '--key-file')))
        if (sub === 'list') return await listKeys(client)
        if (sub === 'delete' && rest[0] !== undefined) {
          await client.deleteKey(rest[0])
          console.log(`deleted key ${rest[0]}`)
          return 0
        }
        throw new UsageError('keys upload --label L --key-file F | keys list | keys delete KEY_ID')
      case 'bind': {
        if (sub === undefined || rest[0] === undefined) throw new UsageError('bind SERVICE KEY_ID|none [--disabled]')
        if (!isServiceName(sub)) throw new UsageError(`SERVICE must be one of ${SERVICE_NAMES.join(', ')}`)
        const keyId = rest[0] === 'none' ? null : rest[0]
        const reply = await client.bind({ service: sub, key_id: keyId, enabled: flags.get('--disabled') !== 'true' })
        console.log(`${sub}: ${keyId === null ? 'unbound' : `bound to ${keyId}`}; runner ${reply.status.state}${reply.status.last_error ? ` (${reply.status.last_error})` : ''}`)
        return 0
      }
      case 'services':
        return await services(client)
      default:
        throw new UsageError(`unknown command ${command ?? ''}`)
    }
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`${err.message}\n${ADMIN_USAGE}`)
      return 2
    }
    if (err instanceof AdminApiError && err.status === 401) {
      console.error(`${err.message}\n(log in first: perpd-admin login --key-file FILE --admin-url URL)`)
      return 1
    }
    console.error(errorMessage(err))
    return 1
  }
}

async function login(adminUrl: string, keyHex: string, configDir: string): Promise<number> {
  const client = new AdminClient(adminUrl)
  const address = addressOfPrivateKey(keyHex)
  const { challenge, timestamp_ms } = await client.challenge()
  // personal_sign over the 28 bytes of PROTOCOL §6, as a wallet would.
  const sig = signDigest(keyHex, eip191Digest(adminLoginMessage(challenge, timestamp_ms)))
  const signature = bytesToHex(new Uint8Array([...hexToBytes(sig.r), ...hexToBytes(sig.s), sig.v]))
  const session = await client.login({ address, timestamp_ms, signature })
  const file = writeSession(configDir, { admin_url: adminUrl, token: session.token, address, expires_at_secs: session.expires_at_secs })
  console.log(`logged in to ${adminUrl} as ${address} until ${new Date(session.expires_at_secs * 1000).toISOString()}; session stored in ${file}`)
  return 0
}

async function uploadKey(client: AdminClient, label: string, keyHex: string): Promise<number> {
  const address = addressOfPrivateKey(keyHex)
  const { public_key } = await client.encryptionKey()
  // The key leaves this process only as ECIES ciphertext to the service's current key.
  const payload = eciesEncrypt(public_key, new TextEncoder().encode(keyHex))
  const entry = await client.uploadKey({ label, address, ...payload, public_key })
  console.log(`uploaded key ${entry.id} (${entry.address}) "${entry.label}"`)
  return 0
}

async function listKeys(client: AdminClient): Promise<number> {
  const { keys } = await client.listKeys()
  if (keys.length === 0) {
    console.log('no keys')
    return 0
  }
  for (const k of keys) console.log(`${k.id}  ${k.address}  ${k.label}  used by: ${k.used_by.join(', ') || '-'}  created ${k.created_at}`)
  return 0
}

async function services(client: AdminClient): Promise<number> {
  const { services } = await client.serviceConfig()
  for (const [name, s] of Object.entries(services)) {
    const state = `${s.status.state}${s.status.last_error ? ` (${s.status.last_error})` : ''}`
    console.log(`${name.padEnd(16)} key ${s.key_id ?? '-'}  ${s.address ?? ''}  ${s.enabled ? 'enabled' : 'disabled'}  ${state}`)
  }
  return 0
}

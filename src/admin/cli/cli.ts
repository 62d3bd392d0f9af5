// The operator's command line over the admin API: log in with a key file (the CLI signs the
// challenge), upload keys encrypted client-side with ECIES, list keys, bind services. Nobody has
// to hand-craft a signature or a ciphertext.
import { readFileSync } from 'node:fs'
import { bytesToHex, hexToBytes } from '../../lib/hex.ts'
import { errorMessage } from '../../lib/log.ts'
import { InfoRequested, OptionError, parseOptions, type OptionTable, type OptionValues } from '../../lib/options.ts'
import { eciesEncrypt } from '../../wire/ecies.ts'
import { addressOfPrivateKey, adminLoginMessage, eip191Digest, signDigest } from '../../wire/signing.ts'
import { isServiceName, SERVICE_NAMES } from '../store/bindings.ts'
import { AdminApiError, AdminClient } from './admin-client.ts'
import { deleteSession, readSession, sessionFile, writeSession } from './cli-session.ts'
import { CLIENT_COMMANDS, cliConfigDir, commandSynopsis, DEFAULT_ADMIN_URL, type ClientCommand, type ClientCommandName } from './commands.ts'

/** A command line the client cannot run (exit 2); `usage` is what to print after the message. */
class UsageError extends OptionError {
  constructor(message: string, readonly usage: string) {
    super(message)
  }
}

/** The command `argv` names (`keys upload` before `keys`) and the words after it. */
function findCommand(argv: readonly string[]): { name: ClientCommandName; rest: string[] } | undefined {
  const two = `${argv[0]} ${argv[1]}`
  if (Object.hasOwn(CLIENT_COMMANDS, two)) return { name: two as ClientCommandName, rest: argv.slice(2) }
  const one = argv[0] ?? ''
  if (Object.hasOwn(CLIENT_COMMANDS, one)) return { name: one as ClientCommandName, rest: argv.slice(1) }
  return undefined
}

/** The synopses of the commands that start with `word` (all of them for an empty word). */
function synopses(word: string): string {
  return Object.values(CLIENT_COMMANDS).filter((c) => word === '' || c.name.split(' ')[0] === word).map((c) => `  ${commandSynopsis(c)}`).join('\n')
}

/** Parses a command's options and checks it got exactly its arguments; --help throws InfoRequested. */
function parse<const T extends OptionTable>(command: ClientCommand<T>, rest: readonly string[]): { values: OptionValues<T>; args: string[] } {
  const usage = `usage: ${commandSynopsis(command)}\n(perpd-admin ${command.name} --help lists its options)`
  const { values, positionals } = parseOptions(rest, command.options, { usage: commandSynopsis(command), summary: command.summary, positionals: true, error: (m) => new UsageError(m, usage) })
  if (positionals.length !== command.args.length) {
    const what = command.args.length === 0 ? 'takes no arguments' : `takes ${command.args.join(' ')}`
    throw new UsageError(`perpd-admin ${command.name} ${what}${positionals.length > command.args.length ? `, not ${positionals.slice(command.args.length).join(' ')}` : ''}`, usage)
  }
  return { values, args: positionals }
}

/** Reads a private key file (64 hex characters, optional 0x, surrounding whitespace ignored). */
function readKeyFile(path: string): string {
  const text = readFileSync(path, 'utf8').trim()
  if (!/^(0x)?[0-9a-fA-F]{64}$/.test(text)) throw new UsageError(`${path} must hold a private key as 64 hex characters`, '')
  return text.startsWith('0x') ? text.slice(2) : text
}

/** The admin URL and token a command uses: its flags, else the stored session (its token only for the same URL). */
function sessionClient(values: { readonly 'admin-url': string | undefined; readonly token?: string | undefined; readonly 'config-dir': string | undefined }): AdminClient {
  const stored = readSession(values['config-dir'] ?? cliConfigDir())
  const adminUrl = (values['admin-url'] ?? stored?.admin_url ?? DEFAULT_ADMIN_URL).replace(/\/+$/, '')
  const token = values.token ?? (stored !== undefined && stored.admin_url === adminUrl ? stored.token : undefined)
  return new AdminClient(adminUrl, token)
}

/** Runs a client command; returns the process exit code. What it prints is for people: plain lines, not logs. */
export async function runCli(argv: readonly string[]): Promise<number> {
  try {
    const found = findCommand(argv)
    if (found === undefined) {
      const word = argv[0] ?? ''
      const group = Object.values(CLIENT_COMMANDS).some((c) => c.name.startsWith(`${word} `))
      if (group && argv.slice(1).some((a) => a === '--help' || a === '-h')) throw new InfoRequested(`usage:\n${synopses(word)}`)
      throw new UsageError(group ? `${word} needs one of: ${Object.values(CLIENT_COMMANDS).filter((c) => c.name.startsWith(`${word} `)).map((c) => c.name.split(' ')[1]).join(', ')}` : `unknown command ${word}`, `usage:\n${synopses(group ? word : '')}`)
    }
    const { name, rest } = found
    switch (name) {
      case 'login': {
        const { values } = parse(CLIENT_COMMANDS.login, rest)
        const configDir = values['config-dir'] ?? cliConfigDir()
        const adminUrl = (values['admin-url'] ?? readSession(configDir)?.admin_url ?? DEFAULT_ADMIN_URL).replace(/\/+$/, '')
        return await login(adminUrl, readKeyFile(values['key-file']), configDir)
      }
      case 'logout': {
        const configDir = parse(CLIENT_COMMANDS.logout, rest).values['config-dir'] ?? cliConfigDir()
        console.log(deleteSession(configDir) ? `removed ${sessionFile(configDir)}` : 'no stored session')
        return 0
      }
      case 'keys upload': {
        const { values } = parse(CLIENT_COMMANDS['keys upload'], rest)
        return await uploadKey(sessionClient(values), values.label, readKeyFile(values['key-file']))
      }
      case 'keys list':
        return await listKeys(sessionClient(parse(CLIENT_COMMANDS['keys list'], rest).values))
      case 'keys delete': {
        const { values, args } = parse(CLIENT_COMMANDS['keys delete'], rest)
        const keyId = args[0]!
        await sessionClient(values).deleteKey(keyId)
        console.log(`deleted key ${keyId}`)
        return 0
      }
      case 'bind': {
        const command = CLIENT_COMMANDS.bind
        const { values, args } = parse(command, rest)
        const [service, key] = args as [string, string]
        if (!isServiceName(service)) throw new UsageError(`SERVICE must be one of ${SERVICE_NAMES.join(', ')}`, `usage: ${commandSynopsis(command)}`)
        const keyId = key === 'none' ? null : key
        const reply = await sessionClient(values).bind({ service, key_id: keyId, enabled: !values.disabled })
        console.log(`${service}: ${keyId === null ? 'unbound' : `bound to ${keyId}`}; runner ${reply.status.state}${reply.status.last_error ? ` (${reply.status.last_error})` : ''}`)
        return 0
      }
      case 'services':
        return await services(sessionClient(parse(CLIENT_COMMANDS.services, rest).values))
    }
  } catch (err) {
    if (err instanceof InfoRequested) {
      console.log(err.text)
      return 0
    }
    if (err instanceof UsageError) {
      console.error(err.usage === '' ? err.message : `${err.message}\n${err.usage}`)
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
  // personal_sign over the 28 bytes of docs/protocol.md#admin-login-signature, as a wallet would.
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

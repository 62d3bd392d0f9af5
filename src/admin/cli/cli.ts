// The operator's command line over the admin API: log in with a key file (the CLI signs the
// challenge), upload keys encrypted client-side with ECIES, list keys, bind services, log out.
// Nobody has to hand-craft a signature or a ciphertext. Private keys are read as bytes and never
// become strings (crypto/secret-hex.ts); what the service sends back is printed with control
// characters escaped, so a label cannot drive the operator's terminal. And two local commands work
// on the data directory: kek rotate and audit verify (docs/admin.md#command-line).
import { readFileSync } from 'node:fs'
import { userInfo } from 'node:os'
import { resolve } from 'node:path'
import { bytesToHex, hexToBytes } from '../../lib/hex.ts'
import { errorMessage } from '../../lib/log.ts'
import { InfoRequested, OptionError, type OptionTable, type OptionValues, parseOptions } from '../../lib/options.ts'
import { eciesEncrypt } from '../../wire/ecies.ts'
import { addressOfPrivateKey, adminLoginMessage, eip191Digest, signDigest } from '../../wire/signing.ts'
import { secretFromHexBytes, secretToHexBytes } from '../crypto/secret-hex.ts'
import { isServiceName, SERVICE_NAMES } from '../store/bindings.ts'
import { AdminApiError, AdminClient } from './admin-client.ts'
import { deleteSession, readSession, sessionFile, writeSession } from './cli-session.ts'
import {
  CLIENT_COMMANDS,
  type ClientCommand,
  type ClientCommandName,
  cliConfigDir,
  commandSynopsis,
  DEFAULT_ADMIN_URL,
} from './commands.ts'

/** A command line the client cannot run (exit 2); `usage` is what to print after the message. */
class UsageError extends OptionError {
  constructor(
    message: string,
    readonly usage: string,
  ) {
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
  return Object.values(CLIENT_COMMANDS)
    .filter((c) => word === '' || c.name.split(' ')[0] === word)
    .map((c) => `  ${commandSynopsis(c)}`)
    .join('\n')
}

/** Parses a command's options and checks it got exactly its arguments; --help throws InfoRequested. */
function parse<const T extends OptionTable>(
  command: ClientCommand<T>,
  rest: readonly string[],
): { values: OptionValues<T>; args: string[] } {
  const usage = `usage: ${commandSynopsis(command)}\n(perpd-admin ${command.name} --help lists its options)`
  const { values, positionals } = parseOptions(rest, command.options, {
    usage: commandSynopsis(command),
    summary: command.summary,
    positionals: true,
    error: (m) => new UsageError(m, usage),
  })
  if (positionals.length !== command.args.length) {
    const what = command.args.length === 0 ? 'takes no arguments' : `takes ${command.args.join(' ')}`
    throw new UsageError(
      `perpd-admin ${command.name} ${what}${positionals.length > command.args.length ? `, not ${positionals.slice(command.args.length).join(' ')}` : ''}`,
      usage,
    )
  }
  return { values, args: positionals }
}

/** Reads a private key file (64 hex characters, optional 0x, surrounding whitespace ignored) into its 32 bytes; the caller zeroes them. */
function readKeyFile(path: string): Uint8Array {
  const text = readFileSync(path)
  const key = secretFromHexBytes(text, 32)
  text.fill(0)
  if (key === undefined) throw new UsageError(`${path} must hold a private key as 64 hex characters`, '')
  return key
}

// What could move the cursor, recolour the terminal, reorder the line or break it: control and
// format characters (escape sequences, bidirectional overrides), separators, lone surrogates.
const UNPRINTABLE = /[\p{C}\p{Zl}\p{Zp}]/gu

/** Text from the service, safe to print: each unprintable character becomes a visible \u{…} escape. */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`)
}

/** The admin URL and token a command uses: its flags, else the stored session (its token only for the same URL). */
function sessionClient(values: {
  readonly 'admin-url': string | undefined
  readonly token?: string | undefined
  readonly 'config-dir': string | undefined
}): AdminClient {
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
      throw new UsageError(
        group
          ? `${word} needs one of: ${Object.values(CLIENT_COMMANDS)
              .filter((c) => c.name.startsWith(`${word} `))
              .map((c) => c.name.split(' ')[1])
              .join(', ')}`
          : `unknown command ${word}`,
        `usage:\n${synopses(group ? word : '')}`,
      )
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
        const { values } = parse(CLIENT_COMMANDS.logout, rest)
        return await logout(sessionClient(values), values['config-dir'] ?? cliConfigDir(), values.all)
      }
      case 'keys upload': {
        const { values } = parse(CLIENT_COMMANDS['keys upload'], rest)
        return await uploadKey(sessionClient(values), values.label, readKeyFile(values['key-file']))
      }
      case 'keys list':
        return await listKeys(sessionClient(parse(CLIENT_COMMANDS['keys list'], rest).values))
      case 'keys rename': {
        const { values, args } = parse(CLIENT_COMMANDS['keys rename'], rest)
        const entry = await sessionClient(values).renameKey(args[0]!, values.label)
        console.log(printable(`renamed key ${entry.id} to ${JSON.stringify(entry.label)}`))
        return 0
      }
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
        if (!isServiceName(service))
          throw new UsageError(`SERVICE must be one of ${SERVICE_NAMES.join(', ')}`, `usage: ${commandSynopsis(command)}`)
        const keyId = key === 'none' ? null : key
        const reply = await sessionClient(values).bind({ service, key_id: keyId, enabled: !values.disabled })
        console.log(
          printable(
            `${service}: ${keyId === null ? 'unbound' : `bound to ${keyId}`}; runner ${reply.status.state}${reply.status.last_error ? ` (${reply.status.last_error})` : ''}`,
          ),
        )
        return 0
      }
      case 'services':
        return await services(sessionClient(parse(CLIENT_COMMANDS.services, rest).values))
      case 'kek rotate': {
        const { values } = parse(CLIENT_COMMANDS['kek rotate'], rest)
        return await rotate(values['data-dir'], values['kek-file'], values.dev)
      }
      case 'audit verify':
        return await verify(parse(CLIENT_COMMANDS['audit verify'], rest).values['data-dir'])
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
      console.error(`${printable(err.message)}\n(log in first: perpd-admin login --key-file FILE --admin-url URL)`)
      return 1
    }
    console.error(printable(errorMessage(err)))
    return 1
  }
}

async function login(adminUrl: string, key: Uint8Array, configDir: string): Promise<number> {
  const client = new AdminClient(adminUrl)
  let body: { address: string; timestamp_ms: number; signature: string }
  try {
    const address = addressOfPrivateKey(key)
    const { challenge, timestamp_ms } = await client.challenge()
    // personal_sign over the 28 bytes of docs/protocol.md#admin-login-signature, as a wallet would.
    const sig = signDigest(key, eip191Digest(adminLoginMessage(challenge, timestamp_ms)))
    body = { address, timestamp_ms, signature: bytesToHex(new Uint8Array([...hexToBytes(sig.r), ...hexToBytes(sig.s), sig.v])) }
  } finally {
    key.fill(0)
  }
  const address = body.address
  const session = await client.login(body)
  const file = writeSession(configDir, { admin_url: adminUrl, token: session.token, address, expires_at_secs: session.expires_at_secs })
  console.log(
    `logged in to ${adminUrl} as ${address} until ${new Date(session.expires_at_secs * 1000).toISOString()}; session stored in ${file}`,
  )
  return 0
}

async function uploadKey(client: AdminClient, label: string, key: Uint8Array): Promise<number> {
  let payload: ReturnType<typeof eciesEncrypt>
  let address: string
  let publicKey: string
  try {
    address = addressOfPrivateKey(key)
    publicKey = (await client.encryptionKey()).public_key
    // The key leaves this process only as ECIES ciphertext to the service's current key; its hex
    // text exists only as bytes, zeroed right after.
    const text = secretToHexBytes(key)
    try {
      payload = eciesEncrypt(publicKey, text)
    } finally {
      text.fill(0)
    }
  } finally {
    key.fill(0)
  }
  const entry = await client.uploadKey({ label, address, ...payload, public_key: publicKey })
  console.log(printable(`uploaded key ${entry.id} (${entry.address}) ${JSON.stringify(entry.label)}`))
  return 0
}

async function logout(client: AdminClient, configDir: string, all: boolean): Promise<number> {
  const file = sessionFile(configDir)
  let code = 0
  if (client.hasToken) {
    try {
      const r = all ? await client.logoutAll() : await client.logout()
      console.log(
        all ? `ended ${(r as { revoked?: number }).revoked ?? 0} sessions at ${client.baseUrl}` : `ended the session at ${client.baseUrl}`,
      )
    } catch (err) {
      if (err instanceof AdminApiError && err.status === 401) {
        console.log(`the session had already ended at ${client.baseUrl}`)
      } else {
        // The local copy goes anyway; say that the token may still work until it expires.
        console.error(
          `could not end the session at ${client.baseUrl}: ${printable(errorMessage(err))}; the token stays valid there until it expires or the service restarts`,
        )
        code = 1
      }
    }
  }
  console.log(deleteSession(configDir) ? `removed ${file}` : 'no stored session')
  return code
}

async function rotate(dataDir: string, kekFile: string | undefined, dev: boolean): Promise<number> {
  const { defaultKekFile } = await import('../store/data-dir.ts')
  const { rotateKek } = await import('../store/kek-rotation.ts')
  const { StartRefused } = await import('../start-refused.ts')
  const dir = resolve(dataDir)
  const file = resolve(kekFile ?? defaultKekFile(dir, dev))
  try {
    const r = rotateKek({ dataDir: dir, kekFile: file, dev, actor: `local:${userInfo().username}` })
    console.log(
      `rotated the KEK of ${dir}: ${r.resealed} keys re-sealed under ${r.newKekId} (was ${r.oldKekId}); ${file} holds the new KEK: back it up now`,
    )
    return 0
  } catch (err) {
    if (err instanceof StartRefused) {
      console.error(err.message)
      return 1
    }
    throw err
  }
}

async function verify(dataDir: string): Promise<number> {
  const { AdminDb, SCHEMA_VERSION } = await import('../store/db.ts')
  const { verifyAuditChain } = await import('../store/audit.ts')
  const dir = resolve(dataDir)
  let db: import('../store/db.ts').AdminDb
  try {
    db = AdminDb.openReadOnly(dir)
  } catch (err) {
    console.error(`cannot open the database in ${dir}: ${errorMessage(err)}`)
    return 1
  }
  try {
    const version = db.schemaVersion()
    if (version < 2) {
      console.error(
        `the database in ${dir} has schema version ${version}, without the audit chain; start the service once (it migrates to ${SCHEMA_VERSION}) and verify again`,
      )
      return 1
    }
    const v = db.read((d) => verifyAuditChain(d))
    if (v.ok) {
      console.log(`audit chain ok: ${v.rows} rows, head ${v.head}`)
      return 0
    }
    console.error(`audit chain broken at row ${v.brokenId}: ${v.problem} (${v.rows} rows before it verify)`)
    return 1
  } finally {
    db.close()
  }
}

async function listKeys(client: AdminClient): Promise<number> {
  const { keys } = await client.listKeys()
  if (keys.length === 0) {
    console.log('no keys')
    return 0
  }
  for (const k of keys)
    console.log(
      printable(`${k.id}  ${k.address}  ${JSON.stringify(k.label)}  used by: ${k.used_by.join(', ') || '-'}  created ${k.created_at}`),
    )
  return 0
}

async function services(client: AdminClient): Promise<number> {
  const { services } = await client.serviceConfig()
  for (const [name, s] of Object.entries(services)) {
    const state = `${s.status.state}${s.status.last_error ? ` (${s.status.last_error})` : ''}`
    console.log(printable(`${name.padEnd(16)} key ${s.key_id ?? '-'}  ${s.address ?? ''}  ${s.enabled ? 'enabled' : 'disabled'}  ${state}`))
  }
  return 0
}

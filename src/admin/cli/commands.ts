// The client commands of perpd-admin (login, logout, keys upload|list|rename|delete, bind,
// services) and the local ones that work on the data directory with the service stopped or not
// running at all (kek rotate, audit verify): one option table each, from which cli.ts parses and
// --help is written. Data only, so the server's --help can list the commands without loading the
// client.
import { homedir } from 'node:os'
import { join } from 'node:path'
import { defineOptions, type OptionTable } from '../../lib/options.ts'
import { SERVICE_NAMES } from '../store/bindings.ts'

/** The admin service address the client uses when neither --admin-url nor a session names one. */
export const DEFAULT_ADMIN_URL = 'http://127.0.0.1:3000'

/** Where the command-line client keeps its session: $XDG_CONFIG_HOME/perpd-admin, else ~/.config/perpd-admin. */
export function cliConfigDir(): string {
  const xdg = process.env.XDG_CONFIG_HOME
  return join(xdg !== undefined && xdg !== '' ? xdg : join(homedir(), '.config'), 'perpd-admin')
}

const CONFIG_DIR = defineOptions({
  'config-dir': {
    type: 'string',
    valueName: 'DIR',
    defaultText: '$XDG_CONFIG_HOME/perpd-admin, else ~/.config/perpd-admin',
    description: 'where login stores the session',
  },
})

const ADMIN_URL = defineOptions({
  'admin-url': {
    type: 'string',
    valueName: 'URL',
    defaultText: `the stored session's, else ${DEFAULT_ADMIN_URL}`,
    description: 'the admin service',
  },
})

/** The options of every command that calls the admin API with a session. */
const SESSION_OPTIONS = defineOptions({
  ...ADMIN_URL,
  token: {
    type: 'string',
    valueName: 'TOKEN',
    defaultText: "the stored session's when it is for the same URL",
    description: 'a session token',
  },
  ...CONFIG_DIR,
})

const KEY_FILE = {
  type: 'string',
  valueName: 'FILE',
  required: true,
  description: 'a file holding a private key as 64 hex characters (0x optional)',
} as const

const DATA_DIR = defineOptions({
  'data-dir': {
    type: 'string',
    valueName: 'DIR',
    default: 'perpd-admin-data',
    description: "the service's data directory (as its --data-dir)",
  },
})

/** The options of the commands that open the database themselves (the service's own --data-dir, --kek-file, --dev). */
const LOCAL_KEK_OPTIONS = defineOptions({
  ...DATA_DIR,
  'kek-file': {
    type: 'string',
    valueName: 'FILE',
    defaultText: 'DATA_DIR.kek (DATA_DIR/admin.kek with --dev)',
    description: "the service's KEK file (as its --kek-file)",
  },
  dev: { type: 'boolean', description: "as the service's --dev (a KEK inside the data directory is accepted)" },
})

/** One client command: its words, the arguments after them, its options and a line for --help. */
export interface ClientCommand<T extends OptionTable = OptionTable> {
  /** e.g. `keys upload`. */
  readonly name: string
  /** Positional arguments, e.g. ['KEY_ID']. */
  readonly args: readonly string[]
  readonly summary: string
  readonly options: T
}

function command<const T extends OptionTable>(name: string, args: readonly string[], summary: string, options: T): ClientCommand<T> {
  return { name, args, summary, options }
}

/** Every client command, by name. */
export const CLIENT_COMMANDS = {
  login: command(
    'login',
    [],
    'sign a login challenge with an Admin key and store the session',
    defineOptions({ 'key-file': KEY_FILE, ...ADMIN_URL, ...CONFIG_DIR }),
  ),
  logout: command(
    'logout',
    [],
    'end the session at the service (all sessions of the address with --all), then remove the stored session',
    defineOptions({ all: { type: 'boolean', description: 'end every session of the logged-in address (logout-all)' }, ...SESSION_OPTIONS }),
  ),
  'keys upload': command(
    'keys upload',
    [],
    'upload a private key, encrypted here to the service (ECIES)',
    defineOptions({
      label: { type: 'string', valueName: 'LABEL', required: true, description: 'a name for the key' },
      'key-file': KEY_FILE,
      ...SESSION_OPTIONS,
    }),
  ),
  'keys list': command('keys list', [], 'list the stored keys (never the keys themselves)', SESSION_OPTIONS),
  'keys rename': command(
    'keys rename',
    ['KEY_ID'],
    'change the label of a key',
    defineOptions({ label: { type: 'string', valueName: 'LABEL', required: true, description: 'the new name' }, ...SESSION_OPTIONS }),
  ),
  'keys delete': command('keys delete', ['KEY_ID'], 'delete a key no service is bound to', SESSION_OPTIONS),
  bind: command(
    'bind',
    ['SERVICE', 'KEY_ID|none'],
    `bind a service (${SERVICE_NAMES.join(', ')}) to a key, or unbind it`,
    defineOptions({ disabled: { type: 'boolean', description: 'bind but keep the runner stopped' }, ...SESSION_OPTIONS }),
  ),
  services: command('services', [], 'show each service: its key, whether it is enabled, its runner', SESSION_OPTIONS),
  'kek rotate': command(
    'kek rotate',
    [],
    're-seal every stored key under a new KEK (the service stopped); works on the data directory',
    LOCAL_KEK_OPTIONS,
  ),
  'audit verify': command('audit verify', [], "check the audit log's hash chain; works on the data directory, read-only", DATA_DIR),
} as const

export type ClientCommandName = keyof typeof CLIENT_COMMANDS

/** The words that start a client command (`perpd-admin WORD ...`). */
export const CLIENT_COMMAND_WORDS: readonly string[] = [...new Set(Object.keys(CLIENT_COMMANDS).map((n) => n.split(' ')[0]!))]

/** `perpd-admin keys upload --label LABEL --key-file FILE [options]`: the command, its arguments and required options. */
export function commandSynopsis(c: ClientCommand): string {
  const required = Object.entries(c.options).flatMap(([name, spec]) =>
    spec.type !== 'boolean' && spec.required === true ? [`--${name} ${spec.valueName ?? 'VALUE'}`] : [],
  )
  return ['perpd-admin', c.name, ...c.args, ...required, '[options]'].join(' ')
}

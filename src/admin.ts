#!/usr/bin/env bun
// perpd-admin: the off-chain admin service (docs/admin.md), and a command-line client of it for
// operators. `perpd-admin [serve] [flags]` serves; `perpd-admin login|keys|bind|services|logout`
// talks to a running service; `perpd-admin kek rotate|audit verify` work on the data directory.
// Each branch loads only its own modules, so the client starts without loading the server.

import { CLIENT_COMMAND_WORDS } from './admin/cli/commands.ts'
import type { AdminService } from './admin/service.ts'
import { configureLogging, createLogger } from './lib/log.ts'
import { readCommandLine } from './lib/options.ts'

const argv = process.argv.slice(2)
const command = argv[0]

// `perpd-admin config print`: the service's configuration and where each value came from.
if (command === 'config') {
  const { parseAdminConfigPrint, ADMIN_CONFIG_PRINT_OPTIONS } = await import('./admin/config.ts')
  const { configJson, configText } = await import('./lib/options.ts')
  if (argv[1] !== 'print') {
    console.error(
      `perpd-admin config: the command is perpd-admin config print${argv[1] === undefined ? '' : `, not perpd-admin config ${argv[1]}`}\n(perpd-admin --help lists the commands)`,
    )
    process.exit(2)
  }
  const parsed = readCommandLine(() => parseAdminConfigPrint(argv.slice(2)))
  console.log(parsed.values.json ? configJson(ADMIN_CONFIG_PRINT_OPTIONS, parsed) : configText(ADMIN_CONFIG_PRINT_OPTIONS, parsed))
  process.exit(0)
}

if (command !== undefined && CLIENT_COMMAND_WORDS.includes(command)) {
  const { runCli } = await import('./admin/cli/cli.ts')
  process.exit(await runCli(argv))
}

const { parseAdminArgs } = await import('./admin/config.ts')
const { StartRefused } = await import('./admin/start-refused.ts')
const { startAdminService } = await import('./admin/service.ts')

// --help and --version print and exit 0; a command line that cannot be used exits 2.
const config = readCommandLine(() => parseAdminArgs(command === 'serve' ? argv.slice(1) : argv))
configureLogging(config.log)
const log = createLogger('admin')

// The signal handlers come first: a SIGTERM while the service starts (it prints its address before
// its runners start) stops it cleanly once started, instead of ending the process mid-start.
let service: AdminService | undefined
let stopSignal: string | undefined
async function shutdown(signal: string) {
  if (stopSignal !== undefined) {
    // A second signal while it still starts (a start that hangs): give up at once.
    if (service === undefined) process.exit(1)
    return
  }
  stopSignal = signal
  if (service === undefined) return // still starting: stopped as soon as it has started
  log.info(`${signal}: stopping`)
  await service.stop()
  process.exit(0)
}
process.on('SIGINT', () => void shutdown('SIGINT'))
process.on('SIGTERM', () => void shutdown('SIGTERM'))

try {
  // The line tests and scripts wait for (test/support/child-process.ts), once the port is bound.
  service = await startAdminService(config, log, (url) => log.info(`listening on ${url}`, { url }))
} catch (err) {
  // A KEK file, data directory, file mode or TLS file that cannot be used safely: exit 1 with what to do.
  if (err instanceof StartRefused) {
    log.error(err.message)
    process.exit(1)
  }
  throw err
}
if (stopSignal !== undefined) {
  log.info(`${stopSignal}: stopping (it came while the service started)`)
  await service.stop()
  process.exit(0)
}

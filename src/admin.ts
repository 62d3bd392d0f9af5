#!/usr/bin/env bun
// perpd-admin: the off-chain admin service (spec admin-service.md), and a command-line client of
// it for operators. `perpd-admin [serve] [flags]` serves; `perpd-admin login|keys|bind|services|
// logout` talks to a running service. Each branch loads only its own modules, so the client
// starts without loading the server.
import type { AdminService } from './admin/service.ts'

const CLI_COMMANDS = ['login', 'logout', 'keys', 'bind', 'services']

const argv = process.argv.slice(2)
const command = argv[0]

if (command !== undefined && CLI_COMMANDS.includes(command)) {
  const { runCli } = await import('./admin/cli.ts')
  process.exit(await runCli(argv))
}

const { AdminConfigError, parseAdminArgs } = await import('./admin/config.ts')
const { KekError } = await import('./admin/kek.ts')
const { startAdminService } = await import('./admin/service.ts')

let config
try {
  config = parseAdminArgs(command === 'serve' ? argv.slice(1) : argv)
} catch (err) {
  if (err instanceof AdminConfigError) {
    console.error(err.message)
    process.exit(2)
  }
  throw err
}

let service: AdminService
try {
  // The line tests and scripts wait for, printed once the port is bound.
  service = await startAdminService(config, (url) => console.log(`listening on ${url}`))
} catch (err) {
  if (err instanceof KekError) {
    console.error(err.message)
    process.exit(1)
  }
  throw err
}

let stopping = false
async function shutdown(signal: string) {
  if (stopping) return
  stopping = true
  console.log(`${signal}: stopping`)
  await service.stop()
  process.exit(0)
}
process.on('SIGINT', () => void shutdown('SIGINT'))
process.on('SIGTERM', () => void shutdown('SIGTERM'))

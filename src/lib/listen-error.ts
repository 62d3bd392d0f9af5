// What an operator reads when a binary cannot bind its port: one line that names the address and
// what to change, in place of the HTTP server's exception and stack.
import { errorMessage } from './log.ts'

/** The message for a failed listen on host:port; err is what Bun.serve threw. */
export function cannotListenMessage(host: string, port: number, err: unknown): string {
  const where = `${host}:${port}`
  switch ((err as { code?: unknown } | null)?.code) {
    case 'EADDRINUSE':
      return `cannot listen on ${where}: the address is in use (another process holds the port: stop it, or choose another port with --port)`
    case 'EACCES':
      return `cannot listen on ${where}: permission denied (ports below 1024 need privileges: choose another with --port)`
    case 'EADDRNOTAVAIL':
      return `cannot listen on ${where}: no interface of this machine has that address (check --host)`
    default:
      return `cannot listen on ${where}: ${errorMessage(err)}`
  }
}

// One-line logging with a component prefix. Callers pass only public facts (addresses, ids,
// reasons): no function here ever receives key material, so no log line can hold one.

/** A logger bound to a component name. */
export interface Logger {
  info(message: string): void
  warn(message: string): void
  error(message: string): void
  /** A logger whose lines carry `component/sub`. */
  child(sub: string): Logger
}

/** Logs to stdout (info) and stderr (warn, error), one line per message. */
export function createLogger(component: string): Logger {
  const line = (level: string, message: string) => `${new Date().toISOString()} ${level} [${component}] ${message}`
  return {
    info: (m) => console.log(line('info', m)),
    warn: (m) => console.error(line('warn', m)),
    error: (m) => console.error(line('error', m)),
    child: (sub) => createLogger(`${component}/${sub}`),
  }
}

/** The message of an unknown thrown value, kept to one short line. */
export function errorMessage(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err)
  return text.replace(/\s+/g, ' ').slice(0, 500)
}

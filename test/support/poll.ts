// Polling a real node until something it reports holds, for end-to-end tests.

/** Reads until check() holds and returns that reading; fails after timeoutMs naming what it awaited and the last reading. */
export async function until<T>(what: string, read: () => Promise<T>, check: (v: T) => boolean, timeoutMs = 8_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const v = await read()
    if (check(v)) return v
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v)}`)
    await Bun.sleep(30)
  }
}

// Loading data into components: a read that reloads when its inputs change (and, optionally, on a
// timer), and the page's WebSocket connection.
import { useEffect, useRef, useState } from 'preact/hooks'
import { PerpdWsClient } from '../client/ws-client.ts'

/** A read's state: its last data (kept while reloading) and its last error. */
export interface Loaded<T> {
  readonly data: T | undefined
  readonly error: Error | undefined
}

/**
 * Runs `read` now and whenever `deps` change, and every `refreshMs` when given; the last data
 * stays while a new read runs. A slower answer to an older read never replaces a newer one.
 */
export function useLoad<T>(read: () => Promise<T>, deps: readonly unknown[], refreshMs?: number): Loaded<T> {
  const [state, setState] = useState<Loaded<T>>({ data: undefined, error: undefined })
  const generation = useRef(0)
  const readRef = useRef(read)
  readRef.current = read
  useEffect(() => {
    let live = true
    const run = () => {
      const mine = ++generation.current
      readRef.current().then(
        (data) => {
          if (live && mine === generation.current) setState({ data, error: undefined })
        },
        (error: unknown) => {
          if (live && mine === generation.current)
            setState((s) => ({ data: s.data, error: error instanceof Error ? error : new Error(String(error)) }))
        },
      )
    }
    run()
    const timer = refreshMs === undefined ? undefined : setInterval(run, refreshMs)
    return () => {
      live = false
      if (timer !== undefined) clearInterval(timer)
    }
  }, [...deps, refreshMs])
  return state
}

/**
 * A WebSocket client of the node that served the page, connected while the component is mounted
 * and subscribed to `topics` (the whole set, replaced when it changes). PerpdWsClient checks every
 * frame's seq, reassembles split pushes, and on a gap or a lost connection reconnects, subscribes
 * again and runs its resync hooks, where the components re-read what pushes only add to.
 */
export function useWsClient(topics: readonly string[]): PerpdWsClient | undefined {
  const [client, setClient] = useState<PerpdWsClient>()
  const connecting = useRef(false)
  useEffect(() => {
    const ws = new PerpdWsClient({ url: location.origin, onWarning: (message) => console.warn(`websocket: ${message}`) })
    setClient(ws)
    return () => ws.close()
  }, [])
  const key = topics.join(' ')
  useEffect(() => {
    if (client === undefined) return
    void client.subscribe(topics)
    if (!connecting.current) {
      connecting.current = true
      void client.connect()
    }
  }, [client, key])
  return client
}

// Starts real NATS servers with JetStream (/usr/sbin/nats-server) for the replication tests: one
// alone, or a cluster of three routed on 127.0.0.1, each on free ports with its own temporary
// store directory; waits until they accept clients (and a cluster can place a three-replica
// stream); stops them by PID. Never the machine's own server on 4222.
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { jetstreamManager } from '@nats-io/jetstream'
import { connect } from '@nats-io/transport-node'

export const NATS_SERVER_BINARY = '/usr/sbin/nats-server'

/** How long a server may take to say it is ready. */
const START_TIMEOUT_MS = 20_000

/** A running nats-server. */
export interface NatsServerProcess {
  readonly pid: number
  /** nats://127.0.0.1:PORT */
  readonly url: string
  readonly port: number
  /** Its JetStream store directory (kept across restart()). */
  readonly storeDir: string
  output(): string
  /** Stops it (SIGKILL by default: a crash) and resolves once it exited. */
  stop(signal?: NodeJS.Signals): Promise<void>
  /** Starts it again on the same ports and store directory; resolves once it accepts clients. */
  restart(): Promise<void>
  /** Stops it and removes its store directory. */
  remove(): Promise<void>
}

/** A free TCP port on 127.0.0.1 (bound and released: a small race other tests could lose). */
export async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address !== null ? address.port : 0
      server.close(() => resolve(port))
    })
  })
}

interface ServerSpec {
  readonly name: string
  readonly port: number
  readonly storeDir: string
  readonly extraArgs: readonly string[]
}

function launch(spec: ServerSpec): NatsServerProcess {
  let proc: ReturnType<typeof Bun.spawn>
  let text = ''
  const start = () => {
    text = ''
    proc = Bun.spawn(
      [NATS_SERVER_BINARY, '-js', '-sd', spec.storeDir, '-p', String(spec.port), '-a', '127.0.0.1', '-n', spec.name, ...spec.extraArgs],
      { stdout: 'pipe', stderr: 'pipe' },
    )
    const pump = async (stream: ReadableStream<Uint8Array>) => {
      const decoder = new TextDecoder()
      for await (const chunk of stream) text = (text + decoder.decode(chunk)).slice(-200_000)
    }
    void pump(proc.stdout as ReadableStream<Uint8Array>)
    void pump(proc.stderr as ReadableStream<Uint8Array>)
  }
  start()
  const stop = async (signal: NodeJS.Signals = 'SIGKILL') => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal)
    await proc.exited
  }
  return {
    get pid() {
      return proc.pid
    },
    url: `nats://127.0.0.1:${spec.port}`,
    port: spec.port,
    storeDir: spec.storeDir,
    output: () => text,
    stop,
    async restart() {
      await stop()
      start()
      await waitFor(
        () => /Server is ready/.test(text),
        `nats-server ${spec.name} did not restart`,
        () => text,
      )
    },
    async remove() {
      await stop()
      rmSync(spec.storeDir, { recursive: true, force: true })
    },
  }
}

async function waitFor(ready: () => boolean, what: string, output: () => string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS
  while (Date.now() < deadline) {
    if (ready()) return
    await Bun.sleep(25)
  }
  throw new Error(`${what} in ${START_TIMEOUT_MS} ms:\n${output().slice(-4_000)}`)
}

/**
 * Waits until the cluster places a three-replica stream: a meta leader can be elected before all
 * three servers have joined its group, and a node creating its R3 stream then was refused with
 * "no suitable peers for placement" (seen once in CI).
 */
async function waitForPlacement(url: string, output: () => string): Promise<void> {
  const nc = await connect({ servers: url })
  try {
    const jsm = await jetstreamManager(nc)
    const deadline = Date.now() + START_TIMEOUT_MS
    let last = ''
    while (Date.now() < deadline) {
      try {
        await jsm.streams.add({ name: 'PERPD_TEST_PLACEMENT', subjects: ['perpd-test-placement'], num_replicas: 3 })
        await jsm.streams.delete('PERPD_TEST_PLACEMENT')
        return
      } catch (err) {
        last = (err as Error).message
        await Bun.sleep(100)
      }
    }
    throw new Error(`the NATS cluster placed no three-replica stream in ${START_TIMEOUT_MS} ms (${last}):\n${output().slice(-4_000)}`)
  } finally {
    await nc.close()
  }
}

/** One nats-server with JetStream on a free port of 127.0.0.1. */
export async function startNatsServer(): Promise<NatsServerProcess> {
  const port = await freePort()
  const server = launch({
    name: `perpd-test-${port}`,
    port,
    storeDir: mkdtempSync(join(tmpdir(), 'perpd-nats-')),
    extraArgs: [],
  })
  await waitFor(() => /Server is ready/.test(server.output()), 'nats-server did not start', server.output)
  return server
}

/** A free port is chosen before the server binds it; the cluster's own route connections may take it meanwhile. */
const CLUSTER_START_ATTEMPTS = 3

/**
 * Three nats-servers with JetStream routed into one cluster on 127.0.0.1; resolves once its meta
 * leader is elected. A server that finds its port taken (seen in CI: an outgoing route connection
 * of another server of the cluster got the port as its own, between freePort and the bind) stops
 * the attempt, and the cluster starts again on new ports.
 */
export async function startNatsCluster(): Promise<NatsServerProcess[]> {
  for (let attempt = 1; ; attempt++) {
    const ports = [await freePort(), await freePort(), await freePort()]
    const clusterPorts = [await freePort(), await freePort(), await freePort()]
    const routes = clusterPorts.map((p) => `nats://127.0.0.1:${p}`).join(',')
    const servers = ports.map((port, i) =>
      launch({
        name: `n${i + 1}`,
        port,
        storeDir: mkdtempSync(join(tmpdir(), 'perpd-nats-')),
        extraArgs: ['--cluster_name', 'perpd-test', '--cluster', `nats://127.0.0.1:${clusterPorts[i]}`, '--routes', routes],
      }),
    )
    const all = () => servers.map((s) => s.output()).join('\n')
    const portTaken = () => /address already in use/.test(all())
    await waitFor(() => portTaken() || servers.every((s) => /Server is ready/.test(s.output())), 'the NATS cluster did not start', all)
    if (portTaken()) {
      await Promise.all(servers.map((s) => s.remove()))
      if (attempt < CLUSTER_START_ATTEMPTS) continue
      throw new Error(`the NATS cluster found a port taken ${CLUSTER_START_ATTEMPTS} times:\n${all().slice(-4_000)}`)
    }
    await waitFor(() => /JetStream cluster new metadata leader/.test(all()), 'the NATS cluster elected no JetStream meta leader', all)
    await waitForPlacement(servers[0]!.url, all)
    return servers
  }
}

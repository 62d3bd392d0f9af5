// Signed actions the node takes per second over HTTP, with the node's CPU beside each figure.
// Starts a dev node (src/main.ts) on 127.0.0.1 port 0 with a temporary data directory, its /action
// rate limits off and block time --block-time-ms, then runs the load generator
// (scripts/bench/load.ts) against it as a separate process, with BUN_CONFIG_MAX_HTTP_REQUESTS in
// its environment so fetch does not queue requests in the client, and the node's PID so it can
// read the node's CPU from /proc. Stops the node by its PID and removes its directory.
//   bun scripts/bench/actions.ts [--mode capacity|open|batch] [--seconds 10] [--rate 2000] [--in-flight N] ...
//   bun scripts/bench/actions.ts --url http://127.0.0.1:8080 [--node-pid PID]   (a node you started)
// Figures depend on the machine and on what else runs on it: the node and the generator share
// its cores, so compare runs on the same quiet machine.
import { defineOptions, parseOptionsOrExit } from '../../src/lib/options.ts'
import { startBenchNode } from './bench-node.ts'
import { LOAD_OPTIONS, spawnLoadGenerator } from './load-options.ts'

const OPTIONS = defineOptions({
  ...LOAD_OPTIONS,
  'block-time-ms': { type: 'integer', default: 200, min: 10, max: 60_000, description: 'block time of the node started here' },
  url: {
    type: 'string',
    valueName: 'URL',
    description:
      'drive a dev node already running on 127.0.0.1 instead of starting one (its rate limits off: --rate-limit-ip 0 --rate-limit-signer 0)',
  },
  'node-pid': {
    type: 'integer',
    min: 1,
    max: 4_194_304,
    valueName: 'PID',
    description: "with --url: the node's process id, for its CPU use",
  },
})
const { values: flags } = parseOptionsOrExit(process.argv.slice(2), OPTIONS, {
  usage: 'bun scripts/bench/actions.ts [options]',
  summary:
    'Starts a dev node and measures its /action throughput, latency and CPU with scripts/bench/load.ts (capacity, open or batch mode).',
  program: 'bun scripts/bench/actions.ts',
})

const node =
  flags.url === undefined
    ? await startBenchNode({
        args: ['--dev', '--no-dev-quoter'],
        blockTimeMs: flags['block-time-ms'],
        dirPrefix: 'perpd-bench-',
        startTimeoutMs: 30_000,
      })
    : undefined
const stopNode = () => node?.stop()
process.on('SIGINT', () => void stopNode()?.finally(() => process.exit(130)))
let code = 1
try {
  const url = node?.url ?? flags.url!
  const pid = node?.pid ?? flags['node-pid']
  if (node !== undefined)
    console.log(
      `node: pid ${node.pid}, ${node.url}, block time ${flags['block-time-ms']} ms, /action rate limits off, no dev quoter, data ${node.dataDir}`,
    )
  code = await spawnLoadGenerator(url, pid, flags, 'inherit').exited
  if (code !== 0 && node !== undefined)
    console.error(`load generator exited with ${code}; the node's last output:\n${node.tail().slice(-3_000)}`)
} finally {
  await stopNode()
}
process.exit(code)

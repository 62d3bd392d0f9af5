// Writes docs/rpc.md from the /query method table, with real example replies: starts a dev node
// (temporary data directory, 127.0.0.1 port 0), runs the scenario of test/support/rpc-scenario.ts,
// waits for the history index, calls every method with its example params, stops the node and
// removes its directory.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { queryMethodTable } from '../../src/api/routes/query-routes.ts'
import { removeDir, startNode } from '../../test/support/node-process.ts'
import { captureExample, runRpcScenario, waitForHistory } from '../../test/support/rpc-scenario.ts'
import { type RpcExample, renderRpcDoc } from './rpc-doc.ts'

const methods = [...queryMethodTable.values()]
const node = await startNode({ blockTimeMs: 40 })
try {
  const scenario = await runRpcScenario(node.url)
  await waitForHistory(node.url, scenario)
  const examples = new Map<string, RpcExample>()
  for (const m of methods) examples.set(m.name, await captureExample(node.url, m, scenario))
  const failed = [...examples].filter(([, e]) => (e.response as { error?: unknown }).error !== undefined).map(([name]) => name)
  const path = join(import.meta.dir, '..', '..', 'docs', 'rpc.md')
  writeFileSync(path, renderRpcDoc(methods, examples))
  console.log(`wrote ${path}: ${methods.length} methods${failed.length === 0 ? '' : `; error replies from ${failed.join(', ')}`}`)
} finally {
  await node.stop()
  removeDir(node.dataDir)
}

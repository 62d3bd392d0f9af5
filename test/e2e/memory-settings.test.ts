// src/main.ts starts the node again with the runtime's memory settings (src/node/memory-settings.ts,
// docs/operations.md#memory-settings) before it loads the program: the process that prints its
// address is the one spawned (same PID, same command line) and runs with the settings in its
// environment; an operator's own value is kept, and then nothing is added. What the settings do to
// the node's speed is a benchmark's business (docs/performance.md), not this test's.
import { afterEach, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { MEMORY_ENV } from '../../src/node/memory-settings.ts'
import { type ListeningProcess, PROJECT_ROOT, spawnListeningCommand } from '../support/child-process.ts'
import { removeDir, tempDataDir } from '../support/node-process.ts'

const running: ListeningProcess[] = []
const dirs: string[] = []
afterEach(async () => {
  for (const p of running.splice(0)) await p.stop('SIGKILL')
  for (const d of dirs.splice(0)) removeDir(d)
})

/** The environment a process started with, as /proc shows it. */
function environOf(pid: number): Record<string, string> {
  const env: Record<string, string> = {}
  for (const entry of readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0')) {
    const at = entry.indexOf('=')
    if (at > 0) env[entry.slice(0, at)] = entry.slice(at + 1)
  }
  return env
}

/** The variables of an environment that MEMORY_ENV names. */
const memoryVariables = (env: Record<string, string>) => Object.fromEntries(Object.entries(env).filter(([k]) => k in MEMORY_ENV))

/** `bun src/main.ts --dev` with `extra` in its environment (childEnv: none of the runner's variables of MEMORY_ENV). */
async function startWith(extra: Record<string, string>): Promise<{ node: ListeningProcess; command: string[] }> {
  const dir = tempDataDir()
  dirs.push(dir)
  const command = [
    process.execPath,
    join(PROJECT_ROOT, 'src/main.ts'),
    '--dev',
    '--no-dev-quoter',
    '--data-dir',
    dir,
    '--host',
    '127.0.0.1',
    '--port',
    '0',
  ]
  const node = await spawnListeningCommand('node', command, PROJECT_ROOT, extra)
  running.push(node)
  return { node, command }
}

describe('the memory settings', () => {
  test('a node started without them runs with them, in the process that was spawned, with its command line', async () => {
    const { node, command } = await startWith({})
    expect(memoryVariables(environOf(node.pid))).toEqual({ ...MEMORY_ENV })
    expect(
      readFileSync(`/proc/${node.pid}/cmdline`, 'utf8')
        .split('\0')
        .filter((a) => a !== ''),
    ).toEqual(command)
    const health = await fetch(`${node.url}/api/v1/health/live`)
    expect(health.status).toBe(200)
  })

  test("an operator's own value is kept and nothing is added", async () => {
    const { node } = await startWith({ MIMALLOC_PURGE_DELAY: '250' })
    expect(memoryVariables(environOf(node.pid))).toEqual({ MIMALLOC_PURGE_DELAY: '250' })
  })
})

// The node's command line: the snapshot interval flag (its default, zero to turn snapshots off, and
// the refusals of what is not a block count).
import { expect, test } from 'bun:test'
import { ConfigError, parseNodeArgs } from './config.ts'

test('--snapshot-every-blocks: 10,000 by default, 0 turns snapshots off, anything else but a count is refused', () => {
  expect(parseNodeArgs(['--dev']).snapshotEveryBlocks).toBe(10_000)
  expect(parseNodeArgs(['--dev', '--snapshot-every-blocks', '0']).snapshotEveryBlocks).toBe(0)
  expect(parseNodeArgs(['--dev', '--snapshot-every-blocks=250']).snapshotEveryBlocks).toBe(250)
  for (const bad of ['-1', '1.5', 'ten', '', '2000000000']) {
    expect(() => parseNodeArgs(['--dev', '--snapshot-every-blocks', bad])).toThrow(ConfigError)
  }
  expect(() => parseNodeArgs(['--dev', '--snapshot-every-blocks'])).toThrow(ConfigError)
})

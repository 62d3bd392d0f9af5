// The replication options of the node's command line (docs/replication.md#roles-and-options):
// what each role needs, and the refusals of what cannot be used.
import { expect, test } from 'bun:test'
import { ConfigError, parseNodeArgs } from '../src/config.ts'

const env = {}
const parse = (args: string[]) => parseNodeArgs(args, env)

test('without --nats a node runs alone; --follow and --standby need --nats', () => {
  expect(parse(['--dev']).replication).toBeUndefined()
  expect(() => parse(['--dev', '--follow'])).toThrow('--follow needs --nats URL')
  expect(() => parse(['--dev', '--standby'])).toThrow('--standby needs --nats URL')
})

test('a follower and a standby need no genesis; the node that creates the chain does', () => {
  const follower = parse(['--follow', '--nats', 'nats://10.0.0.1:4222,nats://10.0.0.2:4222'])
  expect(follower.genesis).toBeUndefined()
  expect(follower.replication).toEqual({
    servers: 'nats://10.0.0.1:4222,nats://10.0.0.2:4222',
    replicas: 1,
    mode: 'follow',
    advertiseUrl: undefined,
    leaseTtlMs: 3_000,
    stream: undefined,
    snapshotFrom: undefined,
  })
  expect(parse(['--standby', '--nats', 'nats://n:4222', '--nats-stream', 'PERPD_x_0011']).replication).toMatchObject({
    mode: 'candidate',
    stream: 'PERPD_x_0011',
  })
  expect(() => parse(['--nats', 'nats://n:4222'])).toThrow('give --genesis FILE, or --dev')
  const leader = parse([
    '--dev',
    '--nats',
    'nats://n:4222',
    '--nats-replicas',
    '3',
    '--advertise-url',
    'http://10.0.0.1:8080/',
    '--lease-ttl-ms',
    '1500',
  ])
  expect(leader.genesis?.network).toBe('dev')
  expect(leader.replication).toMatchObject({ mode: 'candidate', replicas: 3, advertiseUrl: 'http://10.0.0.1:8080', leaseTtlMs: 1_500 })
})

test('what cannot be used is a ConfigError naming it', () => {
  expect(() => parse(['--follow', '--standby', '--nats', 'nats://n:4222'])).toThrow('give --follow or --standby, not both')
  expect(() => parse(['--dev', '--nats', 'nats://n:4222', '--nats-replicas', '2'])).toThrow('--nats-replicas must be 1 or 3')
  expect(() => parse(['--dev', '--nats', 'http://n:4222'])).toThrow('--nats: http://n:4222 is not a NATS URL')
  expect(() => parse(['--dev', '--nats', 'nats://n:4222', '--advertise-url', 'n:8080'])).toThrow('--advertise-url: n:8080')
  expect(() => parse(['--dev', '--nats', 'nats://n:4222', '--lease-ttl-ms', '10'])).toThrow(ConfigError)
  expect(() => parse(['--dev', '--snapshot-from', 'http://n:8080'])).toThrow('--snapshot-from needs --nats URL')
  expect(() => parse(['--dev', '--nats', 'nats://n:4222', '--snapshot-from', 'http://n:8080'])).toThrow(
    '--snapshot-from is for a node that joins a running chain',
  )
  expect(() => parse(['--follow', '--nats', 'nats://n:4222', '--snapshot-from', 'n:8080'])).toThrow('--snapshot-from: n:8080')
  expect(parse(['--follow', '--nats', 'nats://n:4222', '--snapshot-from', 'http://10.0.0.1:8080/']).replication?.snapshotFrom).toBe(
    'http://10.0.0.1:8080',
  )
})

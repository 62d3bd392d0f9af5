import { expect, test } from 'bun:test'
import { addressOfPrivateKey } from '../wire/signing.ts'
import { checksumAddress, DEV_PRIVATE_KEYS, devBanner } from './dev-banner.ts'
import { DEV_ADDRESSES, devGenesis } from './dev-genesis.ts'

test('each development key controls the development address of its index', () => {
  expect(DEV_PRIVATE_KEYS.length).toBe(DEV_ADDRESSES.length)
  DEV_PRIVATE_KEYS.forEach((key, i) => {
    expect(addressOfPrivateKey(key)).toBe(DEV_ADDRESSES[i]!)
  })
})

test('EIP-55 checksum as wallets print it', () => {
  expect(checksumAddress(DEV_ADDRESSES[0])).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')
  expect(checksumAddress(DEV_ADDRESSES[1])).toBe('0x70997970C51812dc3A010C7d01b50e0d17dc79C8')
})

test('the banner lists every account with balance and roles, then the keys, under a warning', () => {
  const text = devBanner(devGenesis())
  expect(text).toContain('Available accounts')
  expect(text).toContain('Private keys')
  expect(text).toContain('WARNING')
  expect(text).toContain('(0) 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266 (1,000,000 USD) Admin, Trader')
  expect(text).toContain(`(9) ${DEV_PRIVATE_KEYS[9]}`)
  expect(text).not.toContain('listening on')
})

test('no banner when the genesis holds no development account', () => {
  expect(devBanner({ ...devGenesis(), accounts: [] })).toBe('')
})

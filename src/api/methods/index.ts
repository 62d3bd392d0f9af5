// Every /query method, by area. Each area's file exports its list; names must be unique.
import type { QueryMethod } from './registry.ts'
import { chainMethods } from './chain-methods.ts'

export const ALL_METHODS: readonly QueryMethod[] = [
  ...chainMethods,
]

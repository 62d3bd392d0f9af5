// Every /query method, by area. Each area's file exports its list; names must be unique.

import { chainMethods } from './chain-methods.ts'
import { feedMethods } from './feed-methods.ts'
import { fundsMethods } from './funds-methods.ts'
import { historyMethods } from './history-methods.ts'
import { marginMethods } from './margin-methods.ts'
import { marketMethods } from './market-methods.ts'
import type { QueryMethod } from './registry.ts'
import { stateMethods } from './state-methods.ts'
import { triggerMethods } from './trigger-methods.ts'

export const ALL_METHODS: readonly QueryMethod[] = [
  ...chainMethods,
  ...marketMethods,
  ...marginMethods,
  ...triggerMethods,
  ...fundsMethods,
  ...feedMethods,
  ...historyMethods,
  ...stateMethods,
]

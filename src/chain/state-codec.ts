// The chain state as bytes and back, for the node's snapshots (src/node/snapshots.ts). The state is an object graph:
// the same order object sits in its book, its account's index and the expiry queue; Maps and Sets
// keep insertion order, which block execution iterates in; classes carry prototypes and a few hold
// a function (a queue's compare, a ladder's key). So the codec writes the graph as it is rather
// than a schema per structure: every object once in a table, with references by index, its
// prototype and functions by registered name. Decoding builds the same graph, the same iteration
// orders and the same sharing, so a restored state executes the next blocks exactly as the
// original would; the node still checks its root against the stored one before using it.
//
// Anything the codec does not know (a class or function not registered below, a symbol key, an
// accessor) is refused when encoding, so a new kind of state object cannot be silently lost.
import { Packr } from 'msgpackr'
import { AccountOrders } from './account-orders.ts'
import { BOOK_CLASSES, OrderBook } from './book.ts'
import { ClientIdIndex } from './client-ids.ts'
import { MinHeap } from './min-heap.ts'
import { ORDER_INDEX_COMPARES } from './order-indexes.ts'
import { StateHash } from './state-hash.ts'
import { TriggerLadder } from './trigger-ladder.ts'
import { aboveKey, belowKey, expiryKey } from './trigger-types.ts'
import type { ChainState } from './types.ts'

/** Classes whose instances may be in the state, by a name that minification cannot change. */
const CLASSES: Readonly<Record<string, { readonly prototype: object }>> = {
  AccountOrders, ClientIdIndex, MinHeap, OrderBook, StateHash, TriggerLadder,
  BookNode: BOOK_CLASSES.Node, BookLevel: BOOK_CLASSES.Level, BookSide: BOOK_CLASSES.SideBook, BookIdIndex: BOOK_CLASSES.IdIndex,
}

/** Functions that state objects hold (module-level, so the same function on every run). */
const FUNCTIONS: Readonly<Record<string, Function>> = {
  triggerAboveKey: aboveKey, triggerBelowKey: belowKey, triggerExpiryKey: expiryKey,
  orderByExpiry: ORDER_INDEX_COMPARES.byExpiry, dmsByDeadline: ORDER_INDEX_COMPARES.byDeadline,
}

const PROTOTYPE_NAMES = new Map<object, string>(Object.entries(CLASSES).map(([name, c]) => [c.prototype, name]))
const FUNCTION_NAMES = new Map<Function, string>(Object.entries(FUNCTIONS).map(([name, f]) => [f, name]))

/** Table entry kinds: the first element of an entry. */
const ENTRY = { object: 0, frozenObject: 1, array: 2, map: 3, set: 4, bytes: 5, uint16: 6, int32: 7, uint32: 8, float64: 9 } as const
/** Tagged values (a bare array in a value position is always one of these: arrays themselves are references). */
const VALUE = { undefined: 0, bigint: 1, ref: 2, fn: 3 } as const

/** Version of the encoding; a snapshot of another version is not read. */
export const STATE_CODEC_VERSION = 1

type Encoded = string | number | boolean | null | Uint8Array | readonly unknown[]

const packr = new Packr({ useRecords: false, moreTypes: false })

/** The state's bytes. Throws on anything the codec cannot restore exactly (see above). */
export function encodeState(state: ChainState): Uint8Array {
  const ids = new Map<object, number>()
  const pending: object[] = []
  /** Shapes: [prototype name or '' for a plain object, ...keys], shared by objects that agree. */
  const shapes: (readonly string[])[] = []
  const shapeIds = new Map<string, number>()
  const ref = (o: object): number => {
    let id = ids.get(o)
    if (id === undefined) {
      id = pending.length
      ids.set(o, id)
      pending.push(o)
    }
    return id
  }
  const value = (v: unknown, where: string): Encoded => {
    switch (typeof v) {
      case 'string':
      case 'boolean':
        return v
      case 'number':
        if (!Number.isFinite(v)) throw new Error(`state codec: ${where} is ${v}`)
        return v
      case 'undefined':
        return [VALUE.undefined]
      case 'bigint':
        return [VALUE.bigint, v.toString()]
      case 'function': {
        const name = FUNCTION_NAMES.get(v)
        if (name === undefined) throw new Error(`state codec: ${where} holds an unregistered function ${v.name || '(anonymous)'}`)
        return [VALUE.fn, name]
      }
      case 'object':
        return v === null ? null : [VALUE.ref, ref(v)]
      default:
        throw new Error(`state codec: ${where} is a ${typeof v}`)
    }
  }
  const shapeOf = (o: object, keys: string[]): number => {
    const proto = Object.getPrototypeOf(o)
    const protoName = proto === Object.prototype ? '' : PROTOTYPE_NAMES.get(proto)
    if (protoName === undefined) throw new Error(`state codec: an instance of unregistered class ${proto?.constructor?.name ?? 'null'}`)
    const shape = [protoName, ...keys]
    const signature = shape.join('\u0000')
    let id = shapeIds.get(signature)
    if (id === undefined) {
      id = shapes.length
      shapes.push(shape)
      shapeIds.set(signature, id)
    }
    return id
  }

  ref(state)
  const entries: Encoded[][] = []
  // The table grows while it is walked: each entry's references append the objects not seen yet.
  for (let i = 0; i < pending.length; i++) {
    const o = pending[i]!
    const where = `object ${i}`
    if (Array.isArray(o)) {
      const entry: Encoded[] = [ENTRY.array]
      for (let j = 0; j < o.length; j++) entry.push(value(o[j], where))
      entries.push(entry)
    } else if (o instanceof Map) {
      const entry: Encoded[] = [ENTRY.map]
      for (const [k, v] of o) entry.push(value(k, where), value(v, where))
      entries.push(entry)
    } else if (o instanceof Set) {
      const entry: Encoded[] = [ENTRY.set]
      for (const v of o) entry.push(value(v, where))
      entries.push(entry)
    } else if (o instanceof Uint8Array) {
      entries.push([ENTRY.bytes, o.slice()])
    } else if (o instanceof Uint16Array) {
      entries.push([ENTRY.uint16, Array.from(o)])
    } else if (o instanceof Int32Array) {
      entries.push([ENTRY.int32, Array.from(o)])
    } else if (o instanceof Uint32Array) {
      entries.push([ENTRY.uint32, Array.from(o)])
    } else if (o instanceof Float64Array) {
      entries.push([ENTRY.float64, Array.from(o)])
    } else if (ArrayBuffer.isView(o) || o instanceof ArrayBuffer || o instanceof Date || o instanceof RegExp || o instanceof Promise) {
      throw new Error(`state codec: ${where} is a ${o.constructor.name}, which the codec does not restore`)
    } else {
      if (Object.getOwnPropertySymbols(o).length > 0) throw new Error(`state codec: ${where} has symbol keys`)
      const keys = Object.keys(o)
      const entry: Encoded[] = [Object.isFrozen(o) ? ENTRY.frozenObject : ENTRY.object, shapeOf(o, keys)]
      for (const key of keys) {
        const d = Object.getOwnPropertyDescriptor(o, key)!
        if (d.get !== undefined || d.set !== undefined) throw new Error(`state codec: ${where}.${key} is an accessor`)
        entry.push(value(d.value, `${where}.${key}`))
      }
      entries.push(entry)
    }
  }
  return packr.pack([STATE_CODEC_VERSION, shapes, entries])
}

/** The state encodeState wrote. Throws on bytes it did not write (a damaged or foreign file). */
export function decodeState(bytes: Uint8Array): ChainState {
  const doc = packr.unpack(bytes) as unknown
  if (!Array.isArray(doc) || doc.length !== 3) throw new Error('state codec: not a state encoding')
  const [version, shapes, entries] = doc as [unknown, unknown, unknown]
  if (version !== STATE_CODEC_VERSION) throw new Error(`state codec: version ${String(version)}, this node reads ${STATE_CODEC_VERSION}`)
  if (!Array.isArray(shapes) || !Array.isArray(entries) || entries.length === 0) throw new Error('state codec: no objects')
  const fail = (i: number, why: string): never => {
    throw new Error(`state codec: object ${i} ${why}`)
  }
  const entryAt = (i: number): unknown[] => {
    const e = entries[i]
    if (!Array.isArray(e) || e.length === 0) fail(i, 'is not an entry')
    return e as unknown[]
  }
  const shapeAt = (i: number, id: unknown): string[] => {
    const shape = typeof id === 'number' ? shapes[id] : undefined
    if (!Array.isArray(shape) || shape.length === 0 || !shape.every((k) => typeof k === 'string')) fail(i, `names no shape ${String(id)}`)
    return shape as string[]
  }
  const numbers = (i: number, e: unknown[]): number[] => {
    const list = e[1]
    if (!Array.isArray(list) || !list.every((n) => typeof n === 'number')) fail(i, 'holds a typed array that is not numbers')
    return list as number[]
  }

  // Pass 1: every object empty, so references can point anywhere in the table.
  const objects: object[] = new Array(entries.length)
  for (let i = 0; i < entries.length; i++) {
    const e = entryAt(i)
    switch (e[0]) {
      case ENTRY.object:
      case ENTRY.frozenObject: {
        const protoName = shapeAt(i, e[1])[0]!
        const cls = protoName === '' ? undefined : CLASSES[protoName]
        if (protoName !== '' && cls === undefined) fail(i, `is of unknown class ${protoName}`)
        objects[i] = cls === undefined ? {} : Object.create(cls.prototype)
        break
      }
      case ENTRY.array: objects[i] = []; break
      case ENTRY.map: objects[i] = new Map(); break
      case ENTRY.set: objects[i] = new Set(); break
      case ENTRY.bytes: {
        if (!(e[1] instanceof Uint8Array)) fail(i, 'holds no bytes')
        objects[i] = Uint8Array.from(e[1] as Uint8Array)
        break
      }
      case ENTRY.uint16: objects[i] = Uint16Array.from(numbers(i, e)); break
      case ENTRY.int32: objects[i] = Int32Array.from(numbers(i, e)); break
      case ENTRY.uint32: objects[i] = Uint32Array.from(numbers(i, e)); break
      case ENTRY.float64: objects[i] = Float64Array.from(numbers(i, e)); break
      default: fail(i, `has unknown kind ${String(e[0])}`)
    }
  }
  const value = (i: number, v: unknown): unknown => {
    if (!Array.isArray(v)) return v
    switch (v[0]) {
      case VALUE.undefined: return undefined
      case VALUE.bigint: {
        if (typeof v[1] !== 'string' || !/^-?\d+$/.test(v[1])) fail(i, 'holds a malformed bigint')
        return BigInt(v[1] as string)
      }
      case VALUE.ref: {
        const o = typeof v[1] === 'number' ? objects[v[1]] : undefined
        if (o === undefined) fail(i, `refers to a missing object ${String(v[1])}`)
        return o
      }
      case VALUE.fn: {
        const f = typeof v[1] === 'string' ? FUNCTIONS[v[1]] : undefined
        if (f === undefined) fail(i, `names an unknown function ${String(v[1])}`)
        return f
      }
      default: return fail(i, 'holds a malformed value')
    }
  }
  // Pass 2: contents, in the order they were written (insertion orders included).
  const frozen: object[] = []
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i] as unknown[]
    const o = objects[i]!
    switch (e[0]) {
      case ENTRY.object:
      case ENTRY.frozenObject: {
        const keys = shapeAt(i, e[1])
        if (e.length !== keys.length + 1) fail(i, 'does not match its shape')
        const target = o as Record<string, unknown>
        for (let k = 1; k < keys.length; k++) target[keys[k]!] = value(i, e[k + 1])
        if (e[0] === ENTRY.frozenObject) frozen.push(o)
        break
      }
      case ENTRY.array: {
        const target = o as unknown[]
        for (let k = 1; k < e.length; k++) target.push(value(i, e[k]))
        break
      }
      case ENTRY.map: {
        if (e.length % 2 !== 1) fail(i, 'is a map with an odd count')
        const target = o as Map<unknown, unknown>
        for (let k = 1; k < e.length; k += 2) target.set(value(i, e[k]), value(i, e[k + 1]))
        break
      }
      case ENTRY.set: {
        const target = o as Set<unknown>
        for (let k = 1; k < e.length; k++) target.add(value(i, e[k]))
        break
      }
    }
  }
  // Frozen last: an object frozen before its fields were set would keep them empty.
  for (const o of frozen) Object.freeze(o)
  return objects[0] as ChainState
}

// The chain state as bytes and back, for the node's snapshots (src/node/snapshots.ts). The state
// is an object graph: the same order object sits in its book, its account's index and the expiry
// queue; Maps and Sets keep insertion order, which block execution iterates in; classes carry
// prototypes and a few hold a function (a queue's compare, a ladder's key). So the codec writes the
// graph as it is rather than a schema per structure: every object once in a table, with references
// by index, its prototype and functions by registered name. Decoding builds the same graph, the same iteration
// orders and the same sharing, so a restored state executes the next blocks exactly as the
// original would. The state root's accumulator (state.hash) is not written: decoding rebuilds it
// from every leaf of the decoded state, so the restored root is a full recomputation, which the
// node checks against the stored one before using the state.
//
// Anything the codec does not know (a class or function not registered below, a symbol key, an
// accessor) is refused when encoding, so a new kind of state object cannot be silently lost.
// Typed arrays are written as their bytes, little-endian (the byte order of every host Bun runs on;
// another host is refused rather than misread).
import { Packr } from 'msgpackr'
import { BOOK_CLASSES, OrderBook } from '../book/book.ts'
import { MinHeap } from '../core/min-heap.ts'
import type { ChainState } from '../core/types.ts'
import { AccountOrders } from '../orders/account-orders.ts'
import { ClientIdIndex } from '../orders/client-ids.ts'
import { ORDER_INDEX_COMPARES } from '../orders/order-indexes.ts'
import { TriggerLadder } from '../triggers/trigger-ladder.ts'
import { aboveKey, belowKey, expiryKey } from '../triggers/trigger-types.ts'
import { rebuildStateHash } from './state-root.ts'

/** Classes whose instances may be in the state, by a name that minification cannot change. */
const CLASSES: Readonly<Record<string, { readonly prototype: object }>> = {
  AccountOrders,
  ClientIdIndex,
  MinHeap,
  OrderBook,
  TriggerLadder,
  BookNode: BOOK_CLASSES.Node,
  BookLevel: BOOK_CLASSES.Level,
  BookSide: BOOK_CLASSES.SideBook,
  BookIdIndex: BOOK_CLASSES.IdIndex,
}

/** A function a state object holds (a queue's compare, a ladder's key): stored by name, never called here. */
type StateFunction = (...args: never[]) => unknown

/** Functions that state objects hold (module-level, so the same function on every run). */
const FUNCTIONS: Readonly<Record<string, StateFunction>> = {
  triggerAboveKey: aboveKey,
  triggerBelowKey: belowKey,
  triggerExpiryKey: expiryKey,
  orderByExpiry: ORDER_INDEX_COMPARES.byExpiry,
  dmsByDeadline: ORDER_INDEX_COMPARES.byDeadline,
}

const PROTOTYPE_NAMES = new Map<object, string>(Object.entries(CLASSES).map(([name, c]) => [c.prototype, name]))
const FUNCTION_NAMES = new Map<object, string>(Object.entries(FUNCTIONS).map(([name, f]) => [f, name]))

/** Table entry kinds: the first element of an entry. */
const ENTRY = { object: 0, frozenObject: 1, array: 2, map: 3, set: 4, bytes: 5, uint16: 6, int32: 7, uint32: 8, float64: 9 } as const
/** Tagged values (a bare array in a value position is always one of these: arrays themselves are references). */
const VALUE = { undefined: 0, bigint: 1, ref: 2, fn: 3 } as const

/** Version of the encoding; a snapshot of another version is not read. 2: orders no longer hold
 * their leaf key (the state hash finds their leaves by id). */
export const STATE_CODEC_VERSION = 2

/** Typed arrays the state holds, by entry kind. */
const TYPED_ARRAYS = [
  [ENTRY.uint16, Uint16Array],
  [ENTRY.int32, Int32Array],
  [ENTRY.uint32, Uint32Array],
  [ENTRY.float64, Float64Array],
] as const

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1
const requireLittleEndian = (): void => {
  if (!LITTLE_ENDIAN) throw new Error('state codec: snapshots are little-endian and this host is not')
}

type Encoded = string | number | boolean | null | Uint8Array | readonly unknown[]

const packr = new Packr({ useRecords: false, moreTypes: false })

/** The state's bytes. Throws on anything the codec cannot restore exactly (see above). */
export function encodeState(state: ChainState): Uint8Array {
  requireLittleEndian()
  const ids = new Map<object, number>()
  const pending: object[] = []
  /** Shapes: [prototype name or '' for a plain object, ...keys], shared by objects that agree. */
  const shapes: (readonly string[])[] = []
  /** Shapes seen per prototype, found by comparing key lists (no string built per object). */
  const shapesByProto = new Map<object, { readonly keys: readonly string[]; readonly id: number }[]>()
  const ref = (o: object): number => {
    let id = ids.get(o)
    if (id === undefined) {
      id = pending.length
      ids.set(o, id)
      pending.push(o)
    }
    return id
  }
  /** v as a table value; `at` is the index of the object holding it (named in errors). */
  const value = (v: unknown, at: number): Encoded => {
    switch (typeof v) {
      case 'string':
      case 'boolean':
        return v
      case 'number':
        if (!Number.isFinite(v)) throw new Error(`state codec: object ${at} holds ${v}`)
        return v
      case 'undefined':
        return [VALUE.undefined]
      case 'bigint':
        return [VALUE.bigint, v.toString()]
      case 'function': {
        const name = FUNCTION_NAMES.get(v)
        if (name === undefined) throw new Error(`state codec: object ${at} holds an unregistered function ${v.name || '(anonymous)'}`)
        return [VALUE.fn, name]
      }
      case 'object':
        return v === null ? null : [VALUE.ref, ref(v)]
      default:
        throw new Error(`state codec: object ${at} holds a ${typeof v}`)
    }
  }
  const sameKeys = (a: readonly string[], b: readonly string[]): boolean => {
    if (a.length !== b.length) return false
    for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return false
    return true
  }
  const shapeOf = (o: object, keys: string[], at: number): number => {
    const proto = Object.getPrototypeOf(o) as object
    let known = shapesByProto.get(proto)
    if (known === undefined) {
      // Built-ins other than those handled before (Date, RegExp, WeakMap, ...) land here too.
      if (proto !== Object.prototype && !PROTOTYPE_NAMES.has(proto)) {
        const className = (proto as { constructor?: { name?: string } } | null)?.constructor?.name ?? 'null'
        throw new Error(`state codec: an instance of unregistered class ${className}`)
      }
      known = []
      shapesByProto.set(proto, known)
    }
    for (const shape of known) if (sameKeys(shape.keys, keys)) return shape.id
    // Each new shape's object is checked for what a plain read would miss: own accessors and
    // symbol keys. State objects are built by object literals and class fields, so every
    // object of a shape is made the same way as the first.
    for (const key of keys) {
      const d = Object.getOwnPropertyDescriptor(o, key)!
      if (d.get !== undefined || d.set !== undefined) throw new Error(`state codec: object ${at}: ${key} is an accessor`)
    }
    if (Object.getOwnPropertySymbols(o).length > 0) throw new Error(`state codec: object ${at} has symbol keys`)
    const id = shapes.length
    shapes.push([proto === Object.prototype ? '' : PROTOTYPE_NAMES.get(proto)!, ...keys])
    known.push({ keys, id })
    return id
  }

  // The root object without its hash (rebuilt on decoding), its keys in the same order.
  ref({ ...state, hash: null })
  const entries: Encoded[][] = []
  // The table grows while it is walked: each entry's references append the objects not seen yet.
  for (let i = 0; i < pending.length; i++) {
    const o = pending[i]!
    if (Array.isArray(o)) {
      const entry: Encoded[] = [ENTRY.array]
      for (let j = 0; j < o.length; j++) entry.push(value(o[j], i))
      entries.push(entry)
    } else if (o instanceof Map) {
      const entry: Encoded[] = [ENTRY.map]
      for (const [k, v] of o) entry.push(value(k, i), value(v, i))
      entries.push(entry)
    } else if (o instanceof Set) {
      const entry: Encoded[] = [ENTRY.set]
      for (const v of o) entry.push(value(v, i))
      entries.push(entry)
    } else if (ArrayBuffer.isView(o)) {
      const kind = o instanceof Uint8Array ? ENTRY.bytes : TYPED_ARRAYS.find(([, type]) => o instanceof type)?.[0]
      if (kind === undefined) throw new Error(`state codec: object ${i} is a ${o.constructor.name}, which the codec does not restore`)
      entries.push([kind, new Uint8Array(o.buffer.slice(o.byteOffset, o.byteOffset + o.byteLength))])
    } else {
      const keys = Object.keys(o)
      const entry: Encoded[] = [Object.isFrozen(o) ? ENTRY.frozenObject : ENTRY.object, shapeOf(o, keys, i)]
      const record = o as Record<string, unknown>
      for (const key of keys) entry.push(value(record[key], i))
      entries.push(entry)
    }
  }
  return packr.pack([STATE_CODEC_VERSION, shapes, entries])
}

/** The state encodeState wrote, its hash rebuilt from every leaf. Throws on bytes it did not write
 * (a damaged or foreign file). */
export function decodeState(bytes: Uint8Array): ChainState {
  requireLittleEndian()
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
  for (const shape of shapes) {
    if (!Array.isArray(shape) || shape.length === 0 || !shape.every((k) => typeof k === 'string'))
      throw new Error('state codec: a malformed shape')
  }
  const shapeAt = (i: number, id: unknown): string[] => {
    const shape = typeof id === 'number' ? (shapes[id] as string[] | undefined) : undefined
    if (shape === undefined) fail(i, `names no shape ${String(id)}`)
    return shape!
  }
  /** An entry's bytes, copied into a buffer of its own (aligned for any typed array). */
  const bytesOf = (i: number, e: unknown[], width: number): ArrayBuffer => {
    const b = e[1]
    if (!(b instanceof Uint8Array) || b.length % width !== 0) fail(i, 'holds no typed-array bytes')
    // new Uint8Array(view) copies (a Buffer's slice() would not); the copy owns an aligned buffer.
    return new Uint8Array(b as Uint8Array).buffer
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
      case ENTRY.array:
        objects[i] = []
        break
      case ENTRY.map:
        objects[i] = new Map()
        break
      case ENTRY.set:
        objects[i] = new Set()
        break
      case ENTRY.bytes:
        objects[i] = new Uint8Array(bytesOf(i, e, 1))
        break
      case ENTRY.uint16:
        objects[i] = new Uint16Array(bytesOf(i, e, 2))
        break
      case ENTRY.int32:
        objects[i] = new Int32Array(bytesOf(i, e, 4))
        break
      case ENTRY.uint32:
        objects[i] = new Uint32Array(bytesOf(i, e, 4))
        break
      case ENTRY.float64:
        objects[i] = new Float64Array(bytesOf(i, e, 8))
        break
      default:
        fail(i, `has unknown kind ${String(e[0])}`)
    }
  }
  const value = (i: number, v: unknown): unknown => {
    if (!Array.isArray(v)) return v
    switch (v[0]) {
      case VALUE.undefined:
        return undefined
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
      default:
        return fail(i, 'holds a malformed value')
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
  const state = objects[0] as ChainState
  if (typeof state !== 'object' || Array.isArray(state) || !(state.accounts instanceof Map))
    throw new Error('state codec: the first object is not a state')
  state.hash = rebuildStateHash(state)
  return state
}

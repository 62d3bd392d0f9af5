// Whether two object graphs are the same up to identity: the same prototypes, own keys in the same
// order, Map and Set entries in the same order, equal primitives and typed-array contents, and the
// same sharing (an object reached twice in one graph is the same object, reached at the same places,
// in the other). What a restored snapshot must be of the state it was taken from. Test-only.

/** The first difference between a and b as a path and a reason, or undefined when they are the same. */
export function graphDifference(a: unknown, b: unknown): string | undefined {
  const pairs = new Map<object, object>()
  const reverse = new Map<object, object>()
  const work: { a: unknown; b: unknown; path: string }[] = [{ a, b, path: 'state' }]
  // A worklist, not recursion: a book's order chain can be thousands of links long.
  while (work.length > 0) {
    const { a: x, b: y, path } = work.pop()!
    if (typeof x !== typeof y) return `${path}: ${typeof x} vs ${typeof y}`
    if (typeof x !== 'object' || x === null || y === null) {
      if (!Object.is(x, y)) return `${path}: ${String(x)} vs ${String(y)}`
      continue
    }
    const xo = x as object
    const yo = y as object
    const seen = pairs.get(xo)
    if (seen !== undefined || reverse.has(yo)) {
      if (seen !== yo || reverse.get(yo) !== xo) return `${path}: sharing differs`
      continue
    }
    pairs.set(xo, yo)
    reverse.set(yo, xo)
    if (Object.getPrototypeOf(xo) !== Object.getPrototypeOf(yo)) return `${path}: prototypes differ`
    if (Object.isFrozen(xo) !== Object.isFrozen(yo)) return `${path}: frozen differs`
    if (ArrayBuffer.isView(xo)) {
      const xs = Array.from(xo as unknown as ArrayLike<number>)
      const ys = Array.from(yo as unknown as ArrayLike<number>)
      if (xs.length !== ys.length || xs.some((v, i) => v !== ys[i])) return `${path}: typed array contents differ`
      continue
    }
    if (xo instanceof Map) {
      const xe = [...xo]
      const ye = [...(yo as Map<unknown, unknown>)]
      if (xe.length !== ye.length) return `${path}: map sizes ${xe.length} vs ${ye.length}`
      xe.forEach(([k, v], i) => {
        work.push({ a: k, b: ye[i]![0], path: `${path}.key[${i}]` }, { a: v, b: ye[i]![1], path: `${path}.get(${String(k)})` })
      })
      continue
    }
    if (xo instanceof Set) {
      const xe = [...xo]
      const ye = [...(yo as Set<unknown>)]
      if (xe.length !== ye.length) return `${path}: set sizes ${xe.length} vs ${ye.length}`
      xe.forEach((v, i) => {
        work.push({ a: v, b: ye[i], path: `${path}[${i}]` })
      })
      continue
    }
    const xk = Object.keys(xo)
    const yk = Object.keys(yo)
    if (xk.join(',') !== yk.join(',')) return `${path}: keys ${xk.join(',')} vs ${yk.join(',')}`
    for (const k of xk) work.push({ a: (xo as Record<string, unknown>)[k], b: (yo as Record<string, unknown>)[k], path: `${path}.${k}` })
  }
  return undefined
}

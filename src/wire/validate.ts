// Compiled TypeBox validators that name the first offending field, for -32602 errors.
import type { Static, TSchema } from '@sinclair/typebox'
import { TypeCompiler, type ValueError } from '@sinclair/typebox/compiler'

export type Validation = { readonly ok: true } | { readonly ok: false; readonly field: string; readonly message: string }

export interface Validator<T extends TSchema> {
  check(value: unknown): value is Static<T>
  validate(value: unknown, prefix: string): Validation
}

/** Compiles a schema once; validate() reports the first error as `prefix.path: message`. */
export function compileValidator<T extends TSchema>(schema: T): Validator<T> {
  const compiled = TypeCompiler.Compile(schema)
  return {
    check: (value): value is Static<T> => compiled.Check(value),
    validate(value, prefix) {
      if (compiled.Check(value)) return { ok: true }
      const first = pickError(compiled.Errors(value))
      const path = first === undefined ? '' : first.path.replace(/^\//, '').replaceAll('/', '.')
      const field = path === '' ? prefix : `${prefix}.${path}`
      const message = first === undefined ? 'invalid' : describe(first.message, first.schema)
      return { ok: false, field, message }
    },
  }
}

/** Errors examined to pick the one to report. */
const ERRORS_SCANNED_MAX = 16

/** A wrong value the caller sent says more than a field it left out, so it is reported first. */
function pickError(errors: Iterable<ValueError>): ValueError | undefined {
  let first: ValueError | undefined
  let n = 0
  for (const e of errors) {
    if (e.value !== undefined) return e
    first ??= e
    if (++n >= ERRORS_SCANNED_MAX) break
  }
  return first
}

function describe(message: string, schema: TSchema): string {
  // Unknown properties show up as "Unexpected property"; say which schema fields exist instead.
  if (typeof schema.description === 'string') return `${message} (${schema.description})`
  return message
}

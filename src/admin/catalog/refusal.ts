// The refusals of the category and catalog stores: HttpErrors with the statuses of
// docs/admin.md#market-categories-and-catalog (400 naming the field, 404 unknown ids, 409 conflicts),
// thrown inside a write transaction so nothing of a refused request is kept.
import { HttpError } from '../http/errors.ts'

/** 400: a field's value cannot be used; `field` names it. */
export function invalidField(field: string, reason: string, message: string, detail: Record<string, unknown> = {}): HttpError {
  return new HttpError(400, reason, `${field}: ${message}`, { field, ...detail })
}

/** 404: no category with this id. */
export function categoryNotFound(id: number | string): HttpError {
  return new HttpError(404, 'CATEGORY_NOT_FOUND', `no category with id ${String(id).slice(0, 64)}`)
}

/** 409: the request conflicts with what is stored. */
export function conflict(reason: string, message: string, detail: Record<string, unknown> = {}): HttpError {
  return new HttpError(409, reason, message, detail)
}

// JSON helpers.

/** The value of `text` as JSON, or undefined when it is not JSON (an empty or plain-text HTTP body). */
export function parseJsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

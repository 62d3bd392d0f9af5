// Request bodies read with a byte cap, so an oversized one gets the route's own JSON error instead
// of Bun's bare 413 (a declared length) or a parse failure (a streamed body).

/** Largest request body accepted, bytes (a signed action is well under 4 KiB; a batch of 20 reads too). */
export const REQUEST_BODY_MAX_BYTES = 256 * 1024

/**
 * Bun's own cut-off, a transport backstop far above REQUEST_BODY_MAX_BYTES: the routes answer
 * anything between the two themselves, without reading it; only a larger declared length gets
 * Bun's bare 413.
 */
export const REQUEST_BODY_BACKSTOP_BYTES = 64 * 1024 * 1024

/**
 * The body as UTF-8 text, or undefined when it is longer than maxBytes: a declared Content-Length
 * above the cap is refused unread, a streamed body is read only up to the cap.
 */
export async function readBodyCapped(request: Request, maxBytes = REQUEST_BODY_MAX_BYTES): Promise<string | undefined> {
  const length = request.headers.get('content-length')
  if (length !== null) {
    // A declared length bounds the body (HTTP framing): within the cap it is read at once, the
    // common case and the cheap one; above it the body is refused unread.
    if (Number(length) > maxBytes) return undefined
    return request.text()
  }
  if (request.body === null) return ''
  // No declared length (a chunked body): read it only up to the cap.
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.byteLength
    if (total > maxBytes) {
      await reader.cancel()
      return undefined
    }
    chunks.push(value)
  }
  return new TextDecoder().decode(Buffer.concat(chunks))
}

export const bodyTooLargeMessage = (maxBytes = REQUEST_BODY_MAX_BYTES) => `the request body exceeds ${maxBytes} bytes`

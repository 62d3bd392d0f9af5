// A start-up the admin service refuses (docs/admin.md#running-the-service): a KEK file, a data
// directory or a file mode that cannot be used safely. The message says what is wrong and what to
// do; src/admin.ts prints it and exits 1.

/** The service will not start as configured; the message is meant for the operator. */
export class StartRefused extends Error {
  override readonly name: string = 'StartRefused'
}

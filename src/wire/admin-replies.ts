// Reply shapes of the admin service's API (docs/admin.md) that its web console reads too. Types
// only, with no code and no imports, so the service and the browser share one definition.

/** A stored operator key as the API shows it (docs/admin.md#key-routes): never the private key. */
export interface KeyEntry {
  readonly id: string
  readonly label: string
  readonly address: string
  readonly created_at: string
  readonly used_by: string[]
}

/** The state of a component's runner as GET /api/service-config shows it (docs/admin.md#runner-status). */
export interface RunnerStatus {
  /** stopped: no key bound; disabled: bound but enabled false; unavailable: no such component in
   *  this build; waiting: bound and enabled, but the chain lacks an action or the key a role;
   *  refused: bound and enabled, but the component may not run as configured (last_error says
   *  why; it stays so until the configuration changes and the service restarts); running: cycling. */
  readonly state: 'stopped' | 'disabled' | 'unavailable' | 'waiting' | 'refused' | 'running'
  readonly running: boolean
  readonly address: string | null
  readonly started_at_ms: number | null
  readonly last_success_ms: number | null
  readonly last_error: string | null
  readonly last_error_ms: number | null
  readonly cycles: number
  readonly detail: Record<string, unknown>
}

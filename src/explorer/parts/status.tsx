// The small states every screen shows: loading, a failed read, an empty list.
export function Loading() {
  return <p class="loading">Loading…</p>
}

export function Failure({ error }: { error: Error }) {
  return (
    <p class="error" role="alert">
      {error.message}
    </p>
  )
}

// Keys: the stored operator keys, upload (encrypted in the page), delete (refused while bound).
import { useState } from 'preact/hooks'
import type { KeyEntry } from '../../../wire/admin-replies.ts'
import { ApiError, describeError } from '../api.ts'
import { encryptPrivateKey } from '../key-encryption.ts'
import { type Note, NoteLine, Panel, Table, useCall, useLoad } from '../ui.tsx'

export function KeysScreen() {
  const call = useCall()
  const keys = useLoad(() => call<{ keys: KeyEntry[] }>('GET', '/api/keys'), [call])
  const [note, setNote] = useState<Note | undefined>()

  const remove = async (k: KeyEntry) => {
    try {
      await call('DELETE', `/api/keys/${encodeURIComponent(k.id)}`)
      setNote({ kind: 'ok', text: `Deleted the key ${k.label} (${k.address}).` })
    } catch (err) {
      if (err instanceof ApiError && err.status === 409 && err.reason === 'KEY_BOUND') {
        const users = Array.isArray(err.body.used_by) ? err.body.used_by.join(', ') : 'a service'
        setNote({
          kind: 'error',
          text: `The key ${k.label} is bound to ${users}, so it cannot be deleted: unbind it on the Services screen first. (409 KEY_BOUND)`,
        })
      } else setNote({ kind: 'error', text: describeError(err) })
    }
    keys.reload()
  }

  return (
    <>
      <Panel
        title="Stored keys"
        testId="keys-panel"
        actions={
          <button type="button" onClick={keys.reload}>
            Refresh
          </button>
        }
      >
        <NoteLine note={keys.error === undefined ? note : { kind: 'error', text: keys.error }} testId="keys-note" />
        <Table
          testId="keys-table"
          rows={keys.value?.keys ?? []}
          rowKey={(k) => k.id}
          empty={keys.value === undefined ? 'Loading…' : 'No key is stored yet.'}
          columns={[
            { title: 'Label', render: (k) => k.label },
            { title: 'Address', render: (k) => <code>{k.address}</code> },
            { title: 'Used by', render: (k) => (k.used_by.length === 0 ? '—' : k.used_by.join(', ')) },
            { title: 'Uploaded', render: (k) => k.created_at },
            { title: 'Id', render: (k) => <code class="small">{k.id}</code> },
            {
              title: '',
              render: (k) => (
                <button type="button" class="danger" onClick={() => remove(k)} data-testid={`delete-${k.address}`}>
                  Delete
                </button>
              ),
            },
          ]}
        />
      </Panel>
      <UploadKey onUploaded={keys.reload} />
    </>
  )
}

function UploadKey({ onUploaded }: { onUploaded: () => void }) {
  const call = useCall()
  const [label, setLabel] = useState('')
  const [secret, setSecret] = useState('')
  const [note, setNote] = useState<Note | undefined>()
  const [busy, setBusy] = useState(false)
  const upload = async (e: Event) => {
    e.preventDefault()
    setBusy(true)
    try {
      const payload = await encryptPrivateKey(secret)
      // The typed key is dropped from the form as soon as it is encrypted.
      setSecret('')
      const entry = await call<KeyEntry>('POST', '/api/keys', { label, ...payload })
      setLabel('')
      setNote({ kind: 'ok', text: `Uploaded ${entry.label}: the service decrypted it and derived ${entry.address}.` })
      onUploaded()
    } catch (err) {
      setNote({ kind: 'error', text: describeError(err) })
    } finally {
      setBusy(false)
    }
  }
  return (
    <Panel title="Upload a key" testId="upload-panel">
      <p class="muted">
        The private key is encrypted in this page to the service's encryption key of this start (ECIES on secp256k1) and sent only as
        ciphertext; the service stores it sealed and never returns it.
      </p>
      <NoteLine note={note} testId="upload-note" />
      <form class="row-form" onSubmit={upload}>
        <label>
          Label
          <input value={label} onInput={(e) => setLabel(e.currentTarget.value)} maxLength={64} required data-testid="upload-label" />
        </label>
        <label class="grow">
          Private key (64 hex characters)
          <input
            type="password"
            autocomplete="off"
            spellcheck={false}
            value={secret}
            onInput={(e) => setSecret(e.currentTarget.value)}
            required
            data-testid="upload-secret"
          />
        </label>
        <button type="submit" class="primary" disabled={busy} data-testid="upload-submit">
          {busy ? 'Encrypting…' : 'Encrypt and upload'}
        </button>
      </form>
    </Panel>
  )
}

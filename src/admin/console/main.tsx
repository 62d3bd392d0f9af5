// The admin console's entry: renders the app into the page (index.html). The page cannot send a
// frame-ancestors header of its own (Bun serves it), so it refuses to run inside another page's
// frame, where a hidden overlay could steer an admin's clicks.
import { render } from 'preact'
import { App } from './app.tsx'

const root = document.getElementById('app')
if (root === null) throw new Error('index.html has no #app element')
if (window.top !== window.self) root.textContent = 'The perpd-admin console does not run inside a frame: open it in its own tab.'
else render(<App />, root)

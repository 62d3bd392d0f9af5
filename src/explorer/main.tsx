// The chain explorer's entry: the page perpd serves at `/` (src/api/routes/explorer-routes.ts).
import { render } from 'preact'
import { App } from './app.tsx'

render(<App />, document.getElementById('app')!)

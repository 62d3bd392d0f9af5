// The chain explorer (src/explorer, docs/explorer.md): one HTML page and its bundled script and
// styles, served by Bun's own router beside the API. `bun src/main.ts` bundles the page on its
// first request; `bun build --compile` bundles it into the executable. Only `/` and the bundle's
// hashed asset paths (/chunk-….js, /chunk-….css) are taken: /api/*, /metrics and the WebSocket
// stay with the Elysia app.
import explorerPage from '../../explorer/index.html'

/** The explorer's routes, for Bun.serve's `routes` (Elysia's `serve.routes`). */
export const explorerServeRoutes = { '/': explorerPage } as const

// The web console (docs/admin.md#console) at `/`: src/admin/console/index.html, a Bun HTML import.
// Bun bundles the page's TypeScript and CSS for the browser (at the first request when run from
// source, at compile time in the compiled binary, which then carries the files) and serves the
// bundle's files at hashed paths beside it (`/chunk-….js`, `/chunk-….css`), never under /api/.
// The page holds no data: everything it shows comes from the API with a session. This import is
// the only link from the service's code to the browser code.
import consolePage from '../console/index.html'

/** The console's pages by path, served by Bun beside the API routes (createAdminApp's `pages`). */
export const consolePages: Readonly<Record<string, Bun.HTMLBundle>> = { '/': consolePage }

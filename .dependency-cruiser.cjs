/**
 * The layering of src/, checked in `npm test` (`npm run lint`). docs/architecture.md
 * explains each folder and why it may import what this table allows.
 * @type {import('dependency-cruiser').IConfiguration}
 */

/** Each folder of src/ and the folders it may import from (besides itself and npm packages). */
const allowed = {
  lib: [],
  wire: ['lib'],
  chain: ['lib', 'wire'],
  feed: ['lib', 'wire'],
  indexer: ['lib', 'wire'],
  client: ['lib', 'wire'],
  node: ['lib', 'wire', 'chain', 'feed', 'indexer'],
  api: ['lib', 'wire', 'chain', 'node', 'feed', 'indexer', 'client', 'explorer'],
  admin: ['lib', 'wire', 'client'],
  demo: ['lib', 'wire', 'client', 'node'],
  // Browser code (the page perpd serves at /): the wire types and the client only.
  explorer: ['wire', 'client'],
}

const layerRules = Object.entries(allowed).map(([folder, deps]) => ({
  name: `layer-${folder}`,
  comment: `src/${folder} may import only ${deps.length ? deps.map((d) => `src/${d}`).join(', ') : 'nothing else in src'}`,
  severity: 'error',
  from: { path: `^src/${folder}/` },
  to: {
    path: '^src/',
    pathNot: [`^src/${folder}/`, ...deps.map((d) => `^src/${d}/`)],
  },
}))

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycle anywhere in src/, type-only imports included',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'chain-entry',
      comment: 'Outside src/chain, the chain is reached only through src/chain/index.ts',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/chain/' },
      to: { path: '^src/chain/', pathNot: '^src/chain/index\\.ts$' },
    },
    {
      name: 'no-test-support-in-src',
      comment: 'Production code never imports tests or test support',
      severity: 'error',
      from: { path: '^src/', pathNot: '\\.test\\.ts$' },
      to: { path: ['^test/', '\\.test\\.ts$'] },
    },
    {
      name: 'admin-console-browser-only',
      comment:
        'The admin web console runs in the browser: besides itself it imports only the pure modules it shares with the service (no Node or Bun code)',
      severity: 'error',
      from: { path: '^src/admin/console/' },
      to: {
        path: '^src/',
        pathNot: ['^src/admin/console/', '^src/lib/(hex|keccak)\\.ts$', '^src/wire/(admin-login|admin-replies|ecies)\\.ts$'],
      },
    },
    {
      name: 'admin-console-entry',
      comment: "The service reaches the console only through its page's HTML import (src/admin/http/routes-console.ts)",
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/admin/console/', '^src/admin/http/routes-console\\.ts$'] },
      to: { path: '^src/admin/console/' },
    },
    ...layerRules,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: ['\\.test\\.ts$'] },
  },
}

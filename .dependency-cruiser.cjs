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
  api: ['lib', 'wire', 'chain', 'node', 'feed', 'indexer', 'client'],
  admin: ['lib', 'wire', 'client'],
  demo: ['lib', 'wire', 'client', 'node'],
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
    ...layerRules,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: ['\\.test\\.ts$'] },
  },
}

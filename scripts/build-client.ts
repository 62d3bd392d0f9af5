#!/usr/bin/env bun
// Builds the @perpd/client package (packages/client, README there) from src/client and the
// src/wire and src/lib modules it imports:
//   dist/index.js             one ESM bundle (bun build), runnable on Node >= 20, Bun and browsers
//   dist/types/**/*.d.ts      declarations (tsc -p packages/client/tsconfig.json), entry dist/types/client/index.d.ts
// @noble/curves, @noble/hashes and @sinclair/typebox stay external: they are the package's
// dependencies, so an application shares one copy with its other users of them and takes their
// fixes without a new client release (the TypeBox schemas of the actions are part of the API).
// The node's libsecp256k1 (src/wire/native-secp256k1.ts: the system's through bun:ffi, or the npm
// addon's) is replaced by a stub: the client only signs, and signature recovery falls back to
// @noble/curves, which gives identical results.
// The package's version follows the root package.json.
//   npm run build:client
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const ROOT = join(import.meta.dir, '..')
export const CLIENT_PACKAGE_DIR = join(ROOT, 'packages/client')
const DIST = join(CLIENT_PACKAGE_DIR, 'dist')
const EXTERNAL = ['@noble/curves', '@noble/hashes', '@sinclair/typebox']

/** Runs a command in the repository root; throws with its output when it fails. */
function run(cmd: string[]): void {
  const r = Bun.spawnSync(cmd, { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' })
  if (r.exitCode !== 0) throw new Error(`${cmd.join(' ')} failed (${r.exitCode}):\n${r.stdout.toString()}${r.stderr.toString()}`)
}

/** Every file under dir. */
function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? walk(path) : [path]
  })
}

export async function buildClient(): Promise<void> {
  rmSync(DIST, { recursive: true, force: true })

  // The package.json's version is the root's.
  const rootVersion = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version
  const pkgPath = join(CLIENT_PACKAGE_DIR, 'package.json')
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as { version: string }
  if (pkg.version !== rootVersion) {
    pkg.version = rootVersion
    writeFileSync(pkgPath, `${JSON.stringify(pkg, null, 2)}\n`)
  }

  const result = await Bun.build({
    entrypoints: [join(ROOT, 'src/client/index.ts')],
    outdir: DIST,
    naming: 'index.js',
    target: 'browser',
    format: 'esm',
    sourcemap: 'linked',
    external: EXTERNAL.flatMap((name) => [name, `${name}/*`]),
    plugins: [
      {
        name: 'no-native-secp256k1',
        setup(build) {
          build.onResolve({ filter: /native-secp256k1\.ts$/ }, () => ({ path: 'native-secp256k1-stub', namespace: 'perpd-client-stub' }))
          build.onLoad({ filter: /.*/, namespace: 'perpd-client-stub' }, () => ({
            contents: 'export const nativeRecoveryAvailable = false\nexport function nativeRecover() { return undefined }\n',
            loader: 'js',
          }))
        },
      },
    ],
  })
  if (!result.success) throw new AggregateError(result.logs, 'bun build of src/client failed')

  // Declarations; tsc keeps the sources' .ts import specifiers, which a consumer resolves as .js.
  run(['npx', 'tsc', '-p', 'packages/client/tsconfig.json'])
  for (const file of walk(join(DIST, 'types'))) {
    const text = readFileSync(file, 'utf8')
    const fixed = text.replace(/((?:from |import\()['"]\.{1,2}\/[^'"]*?)\.ts(['"])/g, '$1.js$2')
    if (fixed !== text) writeFileSync(file, fixed)
  }
}

if (import.meta.main) {
  await buildClient()
  console.log(`built ${DIST}`)
}

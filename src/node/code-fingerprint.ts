// Which code this node runs, for snapshots: a snapshot holds the state's objects as the code that
// wrote it laid them out (its classes' fields, its indexes), so another version of the code must
// not restore it; after an upgrade the node replays the blocks instead. The root check on restore
// covers every leaf, but not the derived structures a new version may lay out differently.
//
// From source (`bun src/main.ts`): the SHA-256 of every non-test .ts file under src/, so any
// change to the code is a new fingerprint. A compiled binary (compile.sh) has no source files
// beside it: the SHA-256 of the executable itself.
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'

/** Files hashed at most when fingerprinting from source (the tree has a few hundred). */
const SOURCE_FILES_MAX = 10_000

let cached: string | undefined

/** The fingerprint of the running code (computed once per process). */
export function codeFingerprint(): string {
  cached ??= computeFingerprint()
  return cached
}

function computeFingerprint(): string {
  const srcDir = join(import.meta.dir, '..')
  const hash = createHash('sha256')
  if (existsSync(join(srcDir, 'chain', 'index.ts'))) {
    const files = sourceFiles(srcDir).sort()
    for (const file of files) hash.update(relative(srcDir, file)).update('\0').update(readFileSync(file)).update('\0')
    return `src:${hash.digest('hex')}`
  }
  return `bin:${hash.update(readFileSync(process.execPath)).digest('hex')}`
}

/** Non-test .ts files under dir, depth first. */
function sourceFiles(dir: string): string[] {
  const out: string[] = []
  const pending = [dir]
  while (pending.length > 0 && out.length < SOURCE_FILES_MAX) {
    const d = pending.pop()!
    for (const name of readdirSync(d)) {
      const path = join(d, name)
      if (statSync(path).isDirectory()) pending.push(path)
      else if (name.endsWith('.ts') && !name.endsWith('.test.ts')) out.push(path)
    }
  }
  return out
}

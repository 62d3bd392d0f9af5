// The browser code of src/ (every folder with its own tsconfig.json: the explorer, the admin
// console) type-checks with that tsconfig: the DOM library and preact's JSX, which the root
// tsconfig.json leaves out because they clash with Bun's types. `tsc --noEmit -p .` does not see
// these folders, so this test is where their types are checked.
import { expect, test } from 'bun:test'
import { dirname, join } from 'node:path'
import { PROJECT_ROOT } from '../support/child-process.ts'

const TSC = join(PROJECT_ROOT, 'node_modules', '.bin', 'tsc')
const projects = [...new Bun.Glob('src/**/tsconfig.json').scanSync({ cwd: PROJECT_ROOT })].map(dirname).sort()

test('the browser folders are found', () => {
  expect(projects).toContain('src/explorer')
})

for (const project of projects) {
  test(`${project} type-checks with its tsconfig.json`, async () => {
    const tsc = Bun.spawn([TSC, '--noEmit', '-p', project], { cwd: PROJECT_ROOT, stdout: 'pipe', stderr: 'pipe' })
    const [out, err, code] = await Promise.all([new Response(tsc.stdout).text(), new Response(tsc.stderr).text(), tsc.exited])
    expect(out + err).toBe('')
    expect(code).toBe(0)
  }, 120_000)
}

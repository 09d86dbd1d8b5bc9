// The build id (dist/build.json, and every script-tag file) depends on what the build uses, not on
// bytes that change nothing built: a lock file rewritten by another npm, or whose own `version`
// field lags package.json's, gives the same id; a resolved version or a source changed does not.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { buildId } from '../scripts/lib-build/inputs.mjs'

const ROOT = join(import.meta.dirname, '..')
/** What the build reads, copied: the sources, the build's own files, package.json and the lock. */
const INPUTS = [
  'src',
  'scripts/lib-build',
  'scripts/build.mjs',
  'scripts/fix-dts.mjs',
  'scripts/minify-css.ts',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'vite.lib.config.ts',
]

type Lock = { version?: string; packages: Record<string, Record<string, unknown>> }
let copy: string
const lockPath = () => join(copy, 'package-lock.json')
const readLock = (): Lock => JSON.parse(readFileSync(lockPath(), 'utf8'))

beforeEach(() => {
  copy = mkdtempSync(join(tmpdir(), 'referral-build-id-'))
  for (const input of INPUTS) cpSync(join(ROOT, input), join(copy, input), { recursive: true })
})
afterEach(() => rmSync(copy, { recursive: true, force: true }))

it('is the same for the same inputs, and is the version and a hash', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
  expect(buildId(copy)).toBe(buildId(ROOT))
  expect(buildId(copy)).toMatch(new RegExp(`^${pkg.version.replaceAll('.', '\\.')}\\+[0-9a-f]{8}$`))
})

it("does not change when an install rewrites the lock: its own version, another npm's order, indentation and fields", () => {
  const before = buildId(copy)
  const lock = readLock()
  lock.version = '0.0.1'
  const root = lock.packages['']
  if (root) root.version = '0.0.1'
  // Another npm: entries in reverse order, each with its fields reversed and one more field, tabs.
  const packages = Object.fromEntries(
    Object.entries(lock.packages)
      .reverse()
      .map(([path, entry]) => [
        path,
        { ...Object.fromEntries(Object.entries(entry).reverse()), funding: 'https://example.test' },
      ]),
  )
  writeFileSync(lockPath(), `${JSON.stringify({ ...lock, packages }, null, '\t')}\r\n`)
  expect(buildId(copy)).toBe(before)
})

it('changes when a tool the build runs resolves to another version', () => {
  const before = buildId(copy)
  const lock = readLock()
  const vite = lock.packages['node_modules/vite']
  expect(vite?.version).toBeTypeOf('string')
  if (vite) vite.version = `${vite.version}-next`
  writeFileSync(lockPath(), `${JSON.stringify(lock, null, 2)}\n`)
  expect(buildId(copy)).not.toBe(before)
})

it('changes with a source, and with the version in package.json', () => {
  const before = buildId(copy)
  writeFileSync(join(copy, 'src/embed.ts'), `${readFileSync(join(copy, 'src/embed.ts'))}\n// x\n`)
  const edited = buildId(copy)
  expect(edited).not.toBe(before)
  const pkg = JSON.parse(readFileSync(join(copy, 'package.json'), 'utf8'))
  writeFileSync(join(copy, 'package.json'), JSON.stringify({ ...pkg, version: '9.9.9' }))
  expect(buildId(copy)).toMatch(/^9\.9\.9\+/)
})

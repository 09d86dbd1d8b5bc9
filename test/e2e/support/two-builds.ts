// Two builds of the script-tag files that differ, for the tests of a page mid-upgrade: dist/ (the
// one the suite tests) and the next one, made here from the same sources as a site upgrading in
// place would get it: the version bumped, and the shared modules the loader and the tracking part
// publish listed in the opposite order (src/embed/loader-runtime.ts and runtime.ts), so a file of
// one build would read the other's at the wrong positions. Built once per machine and sources.
import { spawnSync } from 'node:child_process'
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { inputsHash } from '../../../scripts/lib-build/inputs.mjs'

const ROOT = join(import.meta.dirname, '../../..')
export const DIST = join(ROOT, 'dist')

/** What the build reads, copied; node_modules linked. */
const COPIED = [
  'src',
  'scripts',
  'vite.lib.config.ts',
  'package.json',
  'tsconfig.json',
  'tsconfig.build.json',
]

/** The `export { … } from` lines of a runtime list, in the opposite order. */
function reversed(file: string) {
  const text = readFileSync(file, 'utf8')
  const exports = text.match(/^export \{[^}]+\} from '[^']+'$/gm) ?? []
  let n = exports.length
  return text.replace(/^export \{[^}]+\} from '[^']+'$/gm, () => exports[--n] ?? '')
}

/** The next build's dist/ (the script-tag files and build.json), built if not there yet. */
export function nextBuild(): string {
  const dir = join(tmpdir(), `referral-widget-next-${inputsHash().slice(0, 12)}`)
  const dist = join(dir, 'dist')
  if (existsSync(join(dist, 'build.json'))) return dist
  mkdirSync(dir, { recursive: true })
  for (const name of COPIED) cpSync(join(ROOT, name), join(dir, name), { recursive: true })
  if (!existsSync(join(dir, 'node_modules')))
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'))
  for (const list of ['src/embed/loader-runtime.ts', 'src/embed/runtime.ts'])
    writeFileSync(join(dir, list), reversed(join(dir, list)))
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }
  const [major, minor, patch] = pkg.version.split('.').map(Number)
  pkg.version = `${major}.${minor}.${(patch ?? 0) + 1}`
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`)
  const built = spawnSync('node', ['scripts/build.mjs', '--script-tag'], {
    cwd: dir,
    encoding: 'utf8',
  })
  if (built.status !== 0) throw new Error(`the next build failed:\n${built.stderr}`)
  return dist
}

/** A build's id, as its files carry it. */
export const buildOf = (dist: string) =>
  (JSON.parse(readFileSync(join(dist, 'build.json'), 'utf8')) as { build: string }).build

/** The script-tag files of a build, by name. */
export const scriptFilesOf = (dist: string) =>
  readdirSync(dist).filter((name) => /^referral-widget.*\.js$/.test(name))

/** A build's Subresource Integrity hash of `file` (its integrity.json). */
export const integrityOf = (dist: string, file: string) =>
  (JSON.parse(readFileSync(join(dist, 'integrity.json'), 'utf8')) as Record<string, string>)[file]

// What a build of the package is made from: the sources and the build's own files, hashed. The
// dist stamp (scripts/dist-stamp.mjs) compares it with the last build's, and the script-tag files
// carry its first characters in their build id (scripts/build.mjs), so the files of one build know
// each other and refuse another's. Of the lock file, only what the build runs counts: the version
// each package resolved to. Its own `version` field, and how a given npm writes it (order,
// indentation, fields such as `license` or `funding`), change no built byte, so they are no input:
// a newcomer's `npm install` that rewrites the lock leaves the build id as it was.
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, relative, sep } from 'node:path'

const ROOT = join(import.meta.dirname, '../..')

/** What the build reads besides node_modules (the lock's resolved versions pin the tools it runs). */
const INPUT_DIRS = ['src', 'scripts/lib-build']
const LOCK = 'package-lock.json'
const INPUT_FILES = [
  'package.json',
  LOCK,
  'tsconfig.json',
  'tsconfig.build.json',
  'vite.lib.config.ts',
  'scripts/build.mjs',
  'scripts/fix-dts.mjs',
  'scripts/minify-css.ts',
]
/** Tests beside the sources are no input: editing one needs no new build. */
const NOT_INPUT = /\.test(-d)?\.tsx?$/

export const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex')

export function filesUnder(dir) {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
}

/** Slash-separated paths from `base`, sorted, so the hashes do not depend on the platform. */
export const paths = (base, files) =>
  files.map((file) => relative(base, file).split(sep).join('/')).sort()

/**
 * The lock file as the build sees it: each installed package's path and the version it resolved
 * to, one per line, sorted. The root entry (the package's own version, which the build id carries
 * anyway) and every other field are left out. A lock that is not JSON counts as its bytes.
 */
export function resolvedVersions(lockText) {
  let packages
  try {
    packages = JSON.parse(lockText).packages
  } catch {
    return lockText
  }
  return Object.entries(packages ?? {})
    .filter(([path]) => path !== '')
    .map(([path, entry]) => `${path}@${entry?.version ?? entry?.resolved ?? ''}`)
    .sort()
    .join('\n')
}

/** What one input contributes: its content's hash (the lock's resolved versions), or 'absent'. */
function inputHash(root, path) {
  const file = join(root, path)
  if (!existsSync(file)) return 'absent'
  const bytes = readFileSync(file)
  return sha256(path === LOCK ? resolvedVersions(bytes.toString('utf8')) : bytes)
}

export function inputsHash(root = ROOT) {
  const files = [
    ...INPUT_DIRS.flatMap((dir) => filesUnder(join(root, dir))).filter((f) => !NOT_INPUT.test(f)),
    ...INPUT_FILES.map((file) => join(root, file)),
  ]
  const hash = createHash('sha256')
  for (const path of paths(root, files)) hash.update(`${path}\0${inputHash(root, path)}\n`)
  return hash.digest('hex')
}

/** The build's id, as dist/build.json and every script-tag file carry it: `<version>+<hash>`. */
export function buildId(root = ROOT) {
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
  return `${version}+${inputsHash(root).slice(0, 8)}`
}

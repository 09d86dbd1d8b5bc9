// What a build of the package is made from: the sources and the build's own files, hashed. The
// dist stamp (scripts/dist-stamp.mjs) compares it with the last build's, and the script-tag files
// carry its first characters in their build id (scripts/build.mjs), so the files of one build know
// each other and refuse another's.
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, relative, sep } from 'node:path'

const ROOT = join(import.meta.dirname, '../..')

/** What the build reads besides node_modules (package-lock.json pins the tools it runs). */
const INPUT_DIRS = ['src', 'scripts/lib-build']
const INPUT_FILES = [
  'package.json',
  'package-lock.json',
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

export function inputsHash() {
  const files = [
    ...INPUT_DIRS.flatMap((dir) => filesUnder(join(ROOT, dir))).filter((f) => !NOT_INPUT.test(f)),
    ...INPUT_FILES.map((file) => join(ROOT, file)),
  ]
  const hash = createHash('sha256')
  for (const path of paths(ROOT, files)) {
    const file = join(ROOT, path)
    hash.update(`${path}\0${existsSync(file) ? sha256(readFileSync(file)) : 'absent'}\n`)
  }
  return hash.digest('hex')
}

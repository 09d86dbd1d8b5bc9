// Whether dist/ was built from the sources as they are, so the suite never tests an old build
// nor builds twice. `npm run build` writes dist/.build-stamp.json: a hash of the build's inputs,
// taken before it starts (an edit during the build leaves the stamp stale), and each output's
// hash, added when it ends (a missing or edited file is stale too).
//   node scripts/dist-stamp.mjs begin|end   the two halves of the stamp (npm run build)
//   node scripts/dist-stamp.mjs check       exit 0 when dist/ is fresh, 1 (saying why) when not
//   node scripts/dist-stamp.mjs ensure      build when dist/ is stale (npm run build:if-stale)
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { filesUnder, inputsHash, paths, sha256 } from './lib-build/inputs.mjs'

const ROOT = join(import.meta.dirname, '..')
const DIST = join(ROOT, 'dist')
const STAMP = join(DIST, '.build-stamp.json')

function outputHashes() {
  const files = filesUnder(DIST).filter((file) => file !== STAMP)
  return Object.fromEntries(
    paths(DIST, files).map((path) => [path, sha256(readFileSync(join(DIST, path)))]),
  )
}

function readStamp() {
  try {
    return JSON.parse(readFileSync(STAMP, 'utf8'))
  } catch {
    return undefined
  }
}

/** Why dist/ is stale, or undefined when it is fresh. */
function staleReason() {
  if (!existsSync(DIST)) return 'dist/ is missing'
  const stamp = readStamp()
  if (!stamp) return 'dist/ has no build stamp'
  if (!stamp.outputs) return 'the last build of dist/ did not finish'
  if (stamp.inputs !== inputsHash()) return 'the sources or the build changed since dist/ was built'
  const outputs = outputHashes()
  for (const [path, hash] of Object.entries(stamp.outputs)) {
    if (outputs[path] !== hash) return `dist/${path} is ${outputs[path] ? 'changed' : 'missing'}`
  }
  return undefined
}

const command = process.argv[2]
if (command === 'begin') {
  mkdirSync(DIST, { recursive: true })
  writeFileSync(STAMP, `${JSON.stringify({ inputs: inputsHash() })}\n`)
} else if (command === 'end') {
  const stamp = readStamp()
  if (!stamp) throw new Error(`${STAMP} is missing: the build writes it before it starts.`)
  writeFileSync(STAMP, `${JSON.stringify({ ...stamp, outputs: outputHashes() }, null, 2)}\n`)
} else if (command === 'check' || command === 'ensure') {
  const reason = staleReason()
  if (!reason) console.log('dist/ is up to date with its sources.')
  else if (command === 'check') {
    console.log(`${reason}: run \`npm run build\`.`)
    process.exitCode = 1
  } else {
    console.log(`${reason}: building.`)
    const build = spawnSync('npm run build', { cwd: ROOT, stdio: 'inherit', shell: true })
    process.exitCode = build.status ?? 1
  }
} else {
  console.error(`Unknown command ${JSON.stringify(command)}: use begin, end, check or ensure.`)
  process.exitCode = 2
}

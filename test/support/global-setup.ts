// Once per unit run: the property tests' seed, so a failure in the log can be replayed, and a
// warning when dist/ is stale (`npm test` builds it first; `npx vitest run` alone does not).
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { fuzzSeed } from './fuzz.ts'

export default function setup() {
  const { seed, source } = fuzzSeed()
  console.log(
    `[referral] fuzz seed ${seed} (${source}); FUZZ_SEED=${seed} replays this run's cases`,
  )
  const check = spawnSync(process.execPath, ['scripts/dist-stamp.mjs', 'check'], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    encoding: 'utf8',
  })
  if (check.status !== 0) {
    console.warn(
      `[referral] ${check.stdout.trim()} The tests of the built files read dist/ as it is.`,
    )
  }
}

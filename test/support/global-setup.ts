// Once per unit run: a warning when dist/ is stale (`npm test` builds it first; `npx vitest run`
// alone does not).
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

export default function setup() {
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

// How hard the property-based tests try, and which cases they try. Bounded by default so CI stays
// quick; a longer hunt is `FUZZ_RUNS=10000 npx vitest run test/service/fuzz.test.ts`.
// The seed comes from the commit: the same commit replays the same cases (a landing is never
// failed by a case found by chance), and each new commit explores new ones. FUZZ_SEED=<n>
// overrides it, and every failure prints the command that replays it.
import { execFileSync } from 'node:child_process'
import { relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import fc from 'fast-check'
import { expect } from 'vitest'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

function positiveInteger(name: string, fallback: number): number {
  const raw = process.env[name]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new Error(`${name} must be a positive integer, not ${JSON.stringify(raw)}.`)
  }
  return value
}

export const FUZZ_RUNS = positiveInteger('FUZZ_RUNS', 100)

/** Where git cannot say (a copy without .git): every run tries the same cases. */
const FALLBACK_SEED = 1

/** The seed of this run and where it came from. */
export function fuzzSeed(): { seed: number; source: string } {
  const raw = process.env.FUZZ_SEED
  if (raw !== undefined && raw !== '') {
    const seed = Number(raw)
    if (!Number.isSafeInteger(seed)) {
      throw new Error(`FUZZ_SEED must be an integer, not ${JSON.stringify(raw)}.`)
    }
    return { seed, source: 'FUZZ_SEED' }
  }
  try {
    const commit = execFileSync('git', ['rev-parse', 'HEAD'], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim()
    // A commit id is already a hash: its first 32 bits, as the signed integer fast-check takes.
    if (/^[0-9a-f]{40,64}$/.test(commit)) {
      return {
        seed: Number.parseInt(commit.slice(0, 8), 16) | 0,
        source: `commit ${commit.slice(0, 12)}`,
      }
    }
  } catch {
    // no git, or not a repository: the fixed seed below
  }
  return { seed: FALLBACK_SEED, source: 'fixed: no git commit to take it from' }
}

const { seed } = fuzzSeed()

/** The command that runs the failing test again with the same cases. */
function replayCommand(): string {
  const { testPath, currentTestName } = expect.getState()
  const runs = process.env.FUZZ_RUNS ? `FUZZ_RUNS=${process.env.FUZZ_RUNS} ` : ''
  const file = testPath ? ` ${relative(ROOT, testPath)}` : ''
  // -t takes a pattern: the test's own title, as literal text, in single quotes for the shell.
  const title = currentTestName?.split(' > ').at(-1)
  const pattern = title?.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/'/g, `'\\''`)
  const name = pattern ? ` -t '${pattern}'` : ''
  return `${runs}FUZZ_SEED=${seed} npx vitest run${file}${name}`
}

/** Options for fc.assert: the run count, the seed, and a failure that says how to replay it. */
export const fuzzOptions: {
  numRuns: number
  seed: number
  reporter<Ts>(details: fc.RunDetails<Ts>): void
} = {
  numRuns: FUZZ_RUNS,
  seed,
  reporter(details) {
    if (!details.failed) return
    throw new Error(`${fc.defaultReportMessage(details)}\n\nReplay: ${replayCommand()}`, {
      cause: details.errorInstance,
    })
  },
}

/** A vitest timeout for a property that spends about `msPerRun` on each run. */
export const fuzzTimeout = (msPerRun: number) => 5_000 + FUZZ_RUNS * msPerRun

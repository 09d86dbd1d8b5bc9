// How hard the property-based tests try. Bounded by default so CI stays quick; a longer hunt is
// `FUZZ_RUNS=10000 npx vitest run test/service/fuzz.test.ts`, and a failure seen in CI replays
// with the seed fast-check printed: `FUZZ_SEED=<seed> npx vitest run ...`.

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

const seed = process.env.FUZZ_SEED

/** Options for fc.assert: the run count, and the seed to replay when one is given. */
export const fuzzOptions: { numRuns: number; seed?: number } = {
  numRuns: FUZZ_RUNS,
  ...(seed ? { seed: Number(seed) } : {}),
}

/** A vitest timeout for a property that spends about `msPerRun` on each run. */
export const fuzzTimeout = (msPerRun: number) => 5_000 + FUZZ_RUNS * msPerRun

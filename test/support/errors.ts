import { ConfigError } from '../../src/shared/errors.ts'

/** The ConfigError `run` throws; fails the test if it throws nothing or something else. */
export function refusal(run: () => unknown): ConfigError {
  try {
    run()
  } catch (error) {
    if (error instanceof ConfigError) return error
    throw error
  }
  throw new Error('expected a ConfigError, nothing was thrown')
}

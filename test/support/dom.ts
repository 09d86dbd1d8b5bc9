import { vi } from 'vitest'

/**
 * On fake timers: lets requests, nanostores' batched updates and Preact's next-frame effects
 * (35 ms at most, where the ESM components mount) run.
 */
export async function settle() {
  for (let i = 0; i < 10; i++) await vi.advanceTimersByTimeAsync(10)
}

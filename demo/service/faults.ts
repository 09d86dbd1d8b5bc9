// Fault injection for QA (the demo page's controls): the next N answers to test-mode requests
// are a 429 with a chosen Retry-After, a 503, or slow. Off until asked for; live mode is never
// touched.
import { ServiceError } from './errors.ts'

export type FaultPlan =
  | { kind: 'rate-limit'; count: number; retryAfterSeconds: number }
  | { kind: 'unavailable'; count: number }
  | { kind: 'slow'; count: number; delayMs: number }

export function createFaults(
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
) {
  let plan: FaultPlan | null = null

  return {
    set(next: FaultPlan | null) {
      plan = next && next.count > 0 ? { ...next } : null
    },
    get: (): FaultPlan | null => (plan ? { ...plan } : null),
    /** Applies the next planned fault to a test-mode request: throws, waits, or does nothing. */
    async apply(mode: 'test' | 'live') {
      if (!plan || mode !== 'test') return
      const current = plan
      current.count -= 1
      if (current.count <= 0) plan = null
      if (current.kind === 'slow') {
        await sleep(current.delayMs)
        return
      }
      if (current.kind === 'rate-limit') {
        throw new ServiceError(
          429,
          'rate_limit_error',
          'rate_limited',
          `Too many requests (injected). Retry after ${current.retryAfterSeconds} seconds.`,
          undefined,
          { 'Retry-After': String(current.retryAfterSeconds) },
        )
      }
      throw new ServiceError(
        503,
        'api_error',
        'service_unavailable',
        'The service is unavailable (injected).',
      )
    },
  }
}

export type Faults = ReturnType<typeof createFaults>

import { MINUTE } from './clock.ts'

export interface RateDecision {
  allowed: boolean
  limit: number
  remaining: number
  /** Milliseconds until the bucket's window resets. */
  resetMs: number
}

const WINDOW = MINUTE

/**
 * A fixed 60-second window per bucket, starting at the bucket's first counted request.
 * Refused requests are not counted.
 */
export function createRateLimiter(now: () => number) {
  const buckets = new Map<string, { start: number; count: number }>()

  const sweep = (at: number) => {
    for (const [key, bucket] of buckets) if (at >= bucket.start + WINDOW) buckets.delete(key)
  }

  return {
    take(bucketKey: string, limit: number): RateDecision {
      const at = now()
      let bucket = buckets.get(bucketKey)
      // A clock moved backwards also starts a new window rather than leaving one open for long.
      if (!bucket || at >= bucket.start + WINDOW || at < bucket.start) {
        if (buckets.size > 10_000) sweep(at)
        bucket = { start: at, count: 0 }
        buckets.set(bucketKey, bucket)
      }
      const resetMs = bucket.start + WINDOW - at
      if (bucket.count >= limit) return { allowed: false, limit, remaining: 0, resetMs }
      bucket.count += 1
      return { allowed: true, limit, remaining: limit - bucket.count, resetMs }
    },
    clear() {
      buckets.clear()
    },
  }
}

export type RateLimiter = ReturnType<typeof createRateLimiter>

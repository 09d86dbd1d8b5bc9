// Who may call /v1: the key (from the Authorization header, or the beacon form's body), then the
// rate limit, so only requests with a working key are counted, then a fault the demo armed.
import type { MiddlewareHandler } from 'hono'
import { ServiceError, secretKeyRequired } from './errors.ts'
import type { Faults } from './faults.ts'
import { type AppEnv, isBeacon, isPlainObject, jsonBody } from './http.ts'
import type { ApiKey, KeyKind, KeyRegistry } from './keys.ts'
import type { RateLimiter } from './rate-limit.ts'

const authError = (code: string, message: string) =>
  new ServiceError(401, 'authentication_error', code, message)

function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined || header.trim() === '') return undefined
  const match = /^Bearer +(\S+) *$/i.exec(header)
  if (!match?.[1]) {
    throw authError('invalid_api_key', 'Send the API key as "Authorization: Bearer <key>".')
  }
  return match[1]
}

export function authenticateAndLimit(deps: {
  keys: KeyRegistry
  limiter: RateLimiter
  /** Requests per minute, per kind of key. */
  limits: Record<KeyKind, number>
  clientIp: (c: Parameters<MiddlewareHandler<AppEnv>>[0]) => string
  faults: Faults
}): MiddlewareHandler<AppEnv> {
  const { keys, limiter, limits, clientIp, faults } = deps
  return async (c, next) => {
    let apiKey: ApiKey
    if (c.req.path === '/v1/events' && isBeacon(c)) {
      // The beacon form carries its key in the body: sendBeacon cannot set headers.
      const body = await jsonBody(c)
      const key = isPlainObject(body) && typeof body.key === 'string' ? body.key : undefined
      if (key === undefined) {
        throw authError('missing_api_key', 'A text/plain body must carry the public key as "key".')
      }
      apiKey = keys.authenticate(key)
      if (apiKey.kind !== 'pk') {
        throw secretKeyRequired(
          'The beacon form takes public keys only; never send a secret key from a browser.',
        )
      }
      if (isPlainObject(body)) {
        const { key: _key, ...rest } = body
        c.set('body', rest)
      }
    } else {
      apiKey = keys.authenticate(bearerToken(c.req.header('authorization')))
    }
    c.set('apiKey', apiKey)

    const bucket =
      apiKey.kind === 'pk'
        ? `pk|${apiKey.org}|${apiKey.mode}|${clientIp(c)}`
        : `sk|${apiKey.org}|${apiKey.mode}`
    const decision = limiter.take(bucket, limits[apiKey.kind])
    const resetSeconds = Math.max(1, Math.ceil(decision.resetMs / 1000))
    c.header('RateLimit-Limit', String(decision.limit))
    c.header('RateLimit-Remaining', String(decision.remaining))
    c.header('RateLimit-Reset', String(resetSeconds))
    if (!decision.allowed) {
      throw new ServiceError(
        429,
        'rate_limit_error',
        'rate_limited',
        `Too many requests: ${decision.limit} per minute. Retry after ${resetSeconds} seconds.`,
        undefined,
        { 'Retry-After': String(resetSeconds) },
      )
    }
    // Injected faults are for the widget's requests, not for the demo page's admin calls.
    if (c.env?.demoAdmin !== true) await faults.apply(apiKey.mode)
    await next()
  }
}

import { Hono } from 'hono'
import { cors } from 'hono/cors'
import { mount } from 'hono/mount'
import { campaignRoutes } from './campaigns.ts'
import { type Clock, createSystemClock } from './clock.ts'
import { controlRoutes } from './controls.ts'
import { ServiceError, secretKeyRequired } from './errors.ts'
import { eventRoutes } from './events.ts'
import { createFaults } from './faults.ts'
import {
  type AppEnv,
  bodyTooLarge,
  isBeacon,
  isPlainObject,
  jsonBody,
  MAX_BODY_BYTES,
} from './http.ts'
import { type ApiKey, createKeyRegistry } from './keys.ts'
import { linkRoutes, USER_TOKEN_HEADER } from './links.ts'
import { createRateLimiter } from './rate-limit.ts'
import { createRequestLog } from './request-log.ts'
import { type ScriptFiles, scriptFiles } from './scripts.ts'
import { seedDemoData } from './seed.ts'
import { createMemoryStore, type Store } from './store.ts'

export interface ServiceOptions {
  /** Defaults to wall time; tests pass a manual clock. */
  clock?: Clock
  store?: Store
  /** Requests per minute per (public key, client IP). Default 100. */
  pkRateLimit?: number
  /** Requests per minute per secret key. Default 1,000. */
  skRateLimit?: number
  /**
   * Addresses of proxies whose X-Forwarded-For (or Forwarded) is believed. Without one, the TCP peer's address
   * is the client's, whatever the request's headers say.
   */
  trustedProxies?: readonly string[]
  /** Seed the demo organizations, keys and campaigns (default true). */
  seed?: boolean
  /** Mount the demo page's controls (clock, key roll, reset) under /demo-api. */
  controls?: boolean
  /** Where internal errors are reported; never given a key or a stack trace. */
  log?: (line: string) => void
  /**
   * A path prefix the whole service answers under (`/referral`: `/referral/v1/events`), so a
   * site can serve it from its own origin. Nothing answers outside it. Default: none.
   */
  basePath?: string
  /** Serve the built script-tag files (see scripts.ts). Default: not served. */
  scripts?: ScriptFiles
}

/** A createService option that cannot work. */
export class ServiceOptionError extends Error {
  override readonly name = 'ServiceOptionError'
  constructor(
    readonly option: string,
    message: string,
  ) {
    super(message)
  }
}

const BASE_PATH = /^(\/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)+$/

/** `/referral` as given, `''` for none; a trailing slash is dropped. */
export function checkBasePath(value: string | undefined): string {
  if (value === undefined || value === '' || value === '/') return ''
  const path = value.endsWith('/') ? value.slice(0, -1) : value
  if (!BASE_PATH.test(path) || path.split('/').some((part) => part === '..' || part === '.')) {
    throw new ServiceOptionError(
      'basePath',
      `basePath must be a path such as /referral (segments of letters, digits, ".", "_", "~", "-"), not ${JSON.stringify(value).slice(0, 80)}.`,
    )
  }
  return path
}

const EXPOSED_HEADERS = [
  'Retry-After',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'Date',
]

/** The paths of /v1 and the methods each answers, for 405 answers. */
const ROUTES: ReadonlyArray<readonly [string, string]> = [
  ['/v1/campaigns', 'GET, POST'],
  ['/v1/campaigns/:id', 'GET, PATCH'],
  ['/v1/links', 'POST'],
  ['/v1/links/:code', 'GET'],
  ['/v1/links/:code/summary', 'GET'],
  ['/v1/events', 'POST'],
]

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

export function createService(options: ServiceOptions = {}) {
  const basePath = checkBasePath(options.basePath)
  const clock = options.clock ?? createSystemClock()
  const now = () => clock.now()
  const store = options.store ?? createMemoryStore()
  const keys = createKeyRegistry(now)
  const limiter = createRateLimiter(now)
  const limits = { pk: options.pkRateLimit ?? 100, sk: options.skRateLimit ?? 1000 }
  const trustedProxies = new Set(options.trustedProxies ?? [])
  const log = options.log ?? ((line: string) => console.error(line))
  const startedAt = now()
  const faults = createFaults()
  const requestLog = createRequestLog()

  const seed = () => {
    if (options.seed !== false) seedDemoData(store, keys, startedAt)
  }
  seed()

  const clientIp = (c: {
    env: AppEnv['Bindings'] | undefined
    req: { header(name: string): string | undefined }
  }) => {
    const peer = c.env?.incoming?.socket?.remoteAddress ?? 'unknown'
    if (!trustedProxies.has(peer)) return peer
    const forwarded = forwardedFor(c.req.header('x-forwarded-for'), c.req.header('forwarded'))
    // The nearest address that is not one of our proxies is the client.
    for (let i = forwarded.length - 1; i >= 0; i--) {
      const hop = forwarded[i]
      if (hop && !trustedProxies.has(hop)) return hop
    }
    return peer
  }

  const app = new Hono<AppEnv>()

  // Every answer is readable cross-origin, a 404 for a wrong base address included (and the
  // script files, so a page can load them with integrity="…" crossorigin="anonymous").
  const corsHeaders = cors({
    origin: '*',
    allowMethods: ['GET', 'POST', 'PATCH'],
    // Referral-User-Token: extension, the referrer's user token for a link's summary.
    allowHeaders: ['Authorization', 'Content-Type', USER_TOKEN_HEADER],
    exposeHeaders: EXPOSED_HEADERS,
    maxAge: 86400,
  })
  app.use('*', corsHeaders)
  if (options.scripts) app.use('*', scriptFiles(options.scripts))

  // Every answer is dated by the service's own clock (the test clock included): the widget
  // measures the device clock against it.
  app.use('*', async (c, next) => {
    await next()
    c.res.headers.set('Date', new Date(now()).toUTCString())
  })

  // A declared length over the limit is refused before anything is read; a body of unknown
  // length (chunked) is counted while it is read, in jsonBody().
  app.use('*', async (c, next) => {
    const declared = Number(c.req.header('content-length'))
    if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) throw bodyTooLarge()
    await next()
  })

  // What the demo page's request view shows: never a key, only its kind and mode. The demo's
  // own admin calls (in-process, with the secret key) are not the widget's traffic: left out.
  app.use('/v1/*', async (c, next) => {
    await next()
    if (c.env?.demoAdmin === true) return
    const key = c.var.apiKey
    let summary = ''
    if (c.req.path === '/v1/events' && c.res.headers.get('content-type')?.includes('json')) {
      const body: unknown = await c.res
        .clone()
        .json()
        .catch(() => null)
      if (isPlainObject(body) && Array.isArray(body.results)) {
        summary = body.results
          .map((result: unknown) =>
            isPlainObject(result) ? `${String(result.id)} ${String(result.status)}` : '?',
          )
          .join(', ')
      }
    }
    requestLog.add({
      at: new Date(now()).toISOString(),
      method: c.req.method,
      path: c.req.path + (new URL(c.req.url).search || ''),
      status: c.res.status,
      key: key ? `${key.kind}_${key.mode}` : 'none',
      summary,
    })
  })

  // Authentication, then the rate limit: only requests with a working key are counted.
  app.use('/v1/*', async (c, next) => {
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
  })

  app.route('/v1/campaigns', campaignRoutes(store, clock))
  app.route('/v1/links', linkRoutes(store, clock, keys))
  app.route('/v1/events', eventRoutes(store, clock))
  for (const [path, allow] of ROUTES) {
    app.all(path, (c) => {
      throw new ServiceError(
        405,
        'invalid_request_error',
        'method_not_allowed',
        `${c.req.method} is not allowed on ${path}; use ${allow}.`,
        undefined,
        { Allow: allow },
      )
    })
  }

  const service = {
    app,
    clock,
    store,
    faults,
    requestLog,
    /** Rolls a key as the dashboard does; the old key works 24 more hours. Returns the new key. */
    rollKey: (key: string) => keys.roll(key),
    /** Back to the demo data, as at start. */
    reset: () => {
      store.clear()
      keys.clear()
      limiter.clear()
      faults.set(null)
      requestLog.clear()
      seed()
    },
  }

  if (options.controls) app.route('/demo-api', controlRoutes(service))

  const routeMissing = (method: string, path: string) =>
    new ServiceError(
      404,
      'not_found_error',
      'route_missing',
      `No route ${method} ${truncate(path)}.`,
    )
  app.notFound((c) => {
    throw routeMissing(c.req.method, basePath + c.req.path)
  })

  app.onError((error, c) => {
    if (error instanceof ServiceError) {
      for (const [name, value] of Object.entries(error.headers)) c.header(name, value)
      return c.json(error.toBody(), error.status)
    }
    log(`[service] internal error on ${c.req.method} ${truncate(c.req.path)}: ${error.name}`)
    return c.json(
      {
        error: {
          type: 'api_error',
          code: 'internal_error',
          message: 'Something went wrong on our side.',
        },
      },
      500,
    )
  })

  if (!basePath) return service
  // The service as it is, behind the prefix: it sees its own paths (/v1/...) and answers as ever.
  const mounted = new Hono<AppEnv>()
  mounted.use('*', corsHeaders)
  mounted.all(`${basePath}/*`, mount(app.fetch))
  mounted.notFound((c) => c.json(routeMissing(c.req.method, c.req.path).toBody(), 404))
  return { ...service, app: mounted }
}

/** The hops a proxy reports, oldest first: X-Forwarded-For, else the `for=` of Forwarded. */
function forwardedFor(xForwardedFor: string | undefined, forwarded: string | undefined): string[] {
  if (xForwardedFor) return xForwardedFor.split(',').map((part) => part.trim())
  if (!forwarded) return []
  return forwarded.split(',').map((element) => {
    const pair = element.split(';').find((part) => /^\s*for=/i.test(part))
    // for=192.0.2.60, for="[2001:db8::1]:4711" (quotes, brackets and a port are not the address)
    const value =
      pair
        ?.replace(/^\s*for=/i, '')
        .trim()
        .replace(/^"|"$/g, '') ?? ''
    const bracketed = /^\[([^\]]+)\]/.exec(value)
    return bracketed?.[1] ?? value.replace(/:\d+$/, '')
  })
}

const truncate = (text: string, max = 100) => (text.length > max ? `${text.slice(0, max)}…` : text)

export type ReferralService = ReturnType<typeof createService>

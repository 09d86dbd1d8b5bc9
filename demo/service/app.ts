// The local referral service: the contract's /v1 routes (campaigns, links, events) behind
// authentication and rate limits, and optionally the demo page's /demo-api controls, the built
// script files and a path prefix. Each concern lives in its own module; this one puts them in
// order.
import { Hono } from 'hono'
import { cors } from 'hono/cors'
import { mount } from 'hono/mount'
import { authenticateAndLimit } from './authentication.ts'
import { checkBasePath } from './base-path.ts'
import { campaignRoutes } from './campaigns.ts'
import { clientIpOf } from './client-ip.ts'
import { type Clock, createSystemClock } from './clock.ts'
import { controlRoutes } from './controls.ts'
import { answerErrors, answerWrongMethods, routeMissing } from './error-answers.ts'
import { eventRoutes } from './events.ts'
import { createFaults } from './faults.ts'
import { type AppEnv, bodyTooLarge, MAX_BODY_BYTES } from './http.ts'
import { createKeyRegistry } from './keys.ts'
import { linkRoutes, USER_TOKEN_HEADER } from './links.ts'
import { createRateLimiter } from './rate-limit.ts'
import { createRequestLog, logRequests } from './request-log.ts'
import { type ScriptFiles, scriptFiles } from './scripts.ts'
import { seedDemoData } from './seed.ts'
import { createMemoryStore, type Store } from './store.ts'

export { checkBasePath, ServiceOptionError } from './base-path.ts'

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

const EXPOSED_HEADERS = [
  'Retry-After',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'Date',
]

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

  // What the demo page's request view shows: never a key, only its kind and mode.
  app.use('/v1/*', logRequests(requestLog, now))

  // The key, then the rate limit: only requests with a working key are counted.
  app.use(
    '/v1/*',
    authenticateAndLimit({ keys, limiter, limits, clientIp: clientIpOf(trustedProxies), faults }),
  )

  app.route('/v1/campaigns', campaignRoutes(store, clock))
  app.route('/v1/links', linkRoutes(store, clock, keys))
  app.route('/v1/events', eventRoutes(store, clock))
  answerWrongMethods(app)

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

  answerErrors(app, basePath, log)

  if (!basePath) return service
  // The service as it is, behind the prefix: it sees its own paths (/v1/...) and answers as ever.
  const mounted = new Hono<AppEnv>()
  mounted.use('*', corsHeaders)
  mounted.all(`${basePath}/*`, mount(app.fetch))
  mounted.notFound((c) => c.json(routeMissing(c.req.method, c.req.path).toBody(), 404))
  return { ...service, app: mounted }
}

export type ReferralService = ReturnType<typeof createService>

// `npm run bench`: what the widget costs a page, measured on the built files in Debian's headless
// Chromium against the local referral service, beside analytics-next and posthog-js loaded from
// their npm packages the way their snippets load them from a CDN (here a loopback origin).
// Prints a table and writes test/bench/results.json. Every page-load figure is the median of
// BENCH_RUNS runs (default 7, at least 5), each in a fresh browser context; the scenarios take
// turns within each round, so a noisy machine slows all of them alike and the ratios hold. The
// track bursts are the median of 5 runs each.
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import { basename, join } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core'
import { chromiumTarget, launch } from '../e2e/support/browser.ts'
import { startHostOrigin, startServiceOrigin } from '../e2e/support/servers.ts'
import { latencyRuns, latencyTable } from './latency.ts'
import { serviceLoad, serviceLoadTable } from './service-load.ts'

const ROOT = join(import.meta.dirname, '../..')
const RESULTS = join(import.meta.dirname, 'results.json')
const RUNS = Math.max(5, Number(process.env.BENCH_RUNS ?? 7) || 7)
const BURST_RUNS = 5
const BURSTS = [1_000, 10_000] as const
/** Six tabs of one site, each tracking a signup every 100 ms for 5 s. */
const TABS = { tabs: 6, callsPerTab: 50, everyMs: 100 } as const
/**
 * A page's figures are read at this time after navigation (or 1 s after its ready moment, if
 * later): long enough for posthog-js's first batch (its queue flushes every 3 s) to be in.
 */
const WINDOW_MS = 4_000
const AFTER_READY_MS = 1_000
const PUBLIC_KEY = 'pk_test_acme'
const SEGMENT_WRITE_KEY = 'wk_bench'
const POSTHOG_TOKEN = 'phc_bench'
const ANALYTICS_DIST = join(ROOT, 'node_modules/@segment/analytics-next/dist/umd')
const POSTHOG_DIST = join(ROOT, 'node_modules/posthog-js/dist')

// --- the size script ------------------------------------------------------------------------

interface Size {
  raw: number
  gzip: number
  brotli: number
}
interface SizesModule {
  ARTIFACTS: Record<string, string>
  BUDGETS: { trackingOnly: number; withPanel: number }
  measure(file: string): Size
  sizes(): {
    files: Record<string, Size>
    totals: {
      trackingOnly: { gzip: number; brotli: number }
      withPanel: { gzip: number; brotli: number }
    }
  }
}
const sizesModule = (await import(
  new URL('../../scripts/sizes.mjs', import.meta.url).href
)) as SizesModule

function measureFile(path: string): Size {
  const bytes = readFileSync(path)
  return {
    raw: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  }
}

// --- statistics -----------------------------------------------------------------------------

const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  if (sorted.length === 0) return Number.NaN
  const middle = Math.floor(sorted.length / 2)
  const upper = sorted[middle] ?? Number.NaN
  return sorted.length % 2 === 1 ? upper : ((sorted[middle - 1] ?? upper) + upper) / 2
}

interface Summary {
  median: number
  min: number
  max: number
  runs: number[]
}
function summary(values: readonly number[], digits = 1): Summary {
  return {
    median: round(median(values), digits),
    min: round(Math.min(...values), digits),
    max: round(Math.max(...values), digits),
    runs: values.map((value) => round(value, digits)),
  }
}

// --- the vendors' origin --------------------------------------------------------------------

interface LoggedRequest {
  method: string
  path: string
}

/**
 * Stands in for cdn.segment.com + api.segment.io and for PostHog's assets and ingestion hosts:
 * serves the npm packages' browser bundles (no-store, as the service serves ours) and answers
 * their API calls with minimal success bodies. CORS is open, as on the real hosts.
 */
async function startVendorOrigin() {
  const requests: LoggedRequest[] = []
  let url = ''
  const settings = () => ({
    integrations: {
      'Segment.io': {
        apiKey: SEGMENT_WRITE_KEY,
        apiHost: `${new URL(url).host}/v1`,
        protocol: 'http',
        unbundledIntegrations: [],
        addBundledMetadata: true,
        maybeBundledConfigIds: {},
        versionSettings: { version: '4.4.7', componentTypes: ['browser'] },
      },
    },
    plan: { track: { __default: { enabled: true, integrations: {} } } },
    edgeFunction: {},
    analyticsNextEnabled: true,
    middlewareSettings: {},
    enabledMiddleware: {},
    metrics: { sampleRate: 0 },
    legacyVideoPluginsEnabled: false,
    remotePlugins: [],
  })
  const remoteConfig = {
    token: POSTHOG_TOKEN,
    supportedCompression: ['gzip', 'gzip-js'],
    hasFeatureFlags: false,
    captureDeadClicks: false,
    capturePerformance: false,
    autocapture_opt_out: false,
    autocaptureExceptions: false,
    analytics: { endpoint: '/i/v0/e/' },
    elementsChainAsString: true,
    sessionRecording: false,
    heatmaps: false,
    surveys: false,
    defaultIdentifiedOnly: true,
    siteApps: [],
  }

  const send = (
    req: IncomingMessage,
    res: ServerResponse,
    status: number,
    type: string,
    body: string | Buffer,
  ) => {
    res.writeHead(status, {
      'Content-Type': type,
      'Cache-Control': 'no-store',
      'Access-Control-Allow-Origin': req.headers.origin ?? '*',
      'Access-Control-Allow-Credentials': 'true',
      Vary: 'Origin',
    })
    res.end(body)
  }
  const sendFile = (req: IncomingMessage, res: ServerResponse, file: string) => {
    if (!existsSync(file)) return send(req, res, 404, 'text/plain', 'not found')
    send(req, res, 200, 'text/javascript; charset=utf-8', readFileSync(file))
  }

  const server = createServer((req, res) => {
    const method = req.method ?? 'GET'
    const path = (req.url ?? '/').split('?')[0] ?? '/'
    requests.push({ method, path: req.url ?? '/' })
    req.resume()
    if (method === 'OPTIONS') {
      res.writeHead(204, {
        'Access-Control-Allow-Origin': req.headers.origin ?? '*',
        'Access-Control-Allow-Credentials': 'true',
        'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
        'Access-Control-Allow-Headers': req.headers['access-control-request-headers'] ?? '*',
        'Access-Control-Max-Age': '86400',
        Vary: 'Origin',
      })
      res.end()
      return
    }
    const file = vendorFile(path)
    if (file) return sendFile(req, res, file)
    if (path === `/v1/projects/${SEGMENT_WRITE_KEY}/settings`) {
      return send(req, res, 200, 'application/json', JSON.stringify(settings()))
    }
    if (path === `/array/${POSTHOG_TOKEN}/config.js`) {
      const script = `(window._POSTHOG_REMOTE_CONFIG=window._POSTHOG_REMOTE_CONFIG||{})[${JSON.stringify(POSTHOG_TOKEN)}]={config:${JSON.stringify(remoteConfig)},siteApps:[]}`
      return send(req, res, 200, 'text/javascript; charset=utf-8', script)
    }
    if (path === `/array/${POSTHOG_TOKEN}/config`) {
      return send(req, res, 200, 'application/json', JSON.stringify(remoteConfig))
    }
    if (path.startsWith('/flags')) {
      return send(
        req,
        res,
        200,
        'application/json',
        JSON.stringify({ flags: {}, errorsWhileComputingFlags: false, requestId: 'bench' }),
      )
    }
    if (method === 'POST' && path.startsWith('/v1/')) {
      return send(req, res, 200, 'application/json', '{"success":true}')
    }
    if (method === 'POST') return send(req, res, 200, 'application/json', '{"status":1}')
    send(req, res, 404, 'text/plain', 'not found')
  })
  await new Promise<void>((resolve) => server.listen(0, 'localhost', resolve))
  url = `http://localhost:${(server.address() as AddressInfo).port}`
  return {
    url,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** The package file a vendor-origin path serves, if it is one of the bundles. */
function vendorFile(path: string): string | undefined {
  if (path === `/analytics.js/v1/${SEGMENT_WRITE_KEY}/analytics.min.js`) {
    return join(ANALYTICS_DIST, 'standalone.js')
  }
  if (path.startsWith('/analytics-next/bundles/') && path.endsWith('.js')) {
    return join(ANALYTICS_DIST, basename(path))
  }
  if (path.startsWith('/static/') && path.endsWith('.js')) return join(POSTHOG_DIST, basename(path))
  return undefined
}

// --- pages ----------------------------------------------------------------------------------

type ScenarioName = 'blank' | 'ours-tracking' | 'ours-panel' | 'analytics-next' | 'posthog-js'

interface Scenario {
  name: ScenarioName
  label: string
  /** The mark that says the library is ready (see instrument()). */
  readyMark: 'load' | 'api' | 'panel' | 'ready'
  readyMeaning: string
  /** Which origin serves the library: its requests are the ones counted. */
  origin: 'service' | 'vendor' | 'none'
  html: string
}

const page = (body: string) => `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Shop</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body>
<main><h1>Shop</h1><p>A page of a shop.</p>${body}</main>
</body>
</html>`

const REFERRAL_STUB =
  '<script>window.Referral=window.Referral||function(){(Referral.q=Referral.q||[]).push(arguments)}</script>'

/** Segment's snippet (5.2.x), loading analytics.min.js from the vendor origin as its CDN. */
const segmentSnippet = (cdn: string) => `<script>
!function(){var a=window.analytics=window.analytics||[];if(a.initialize||a.invoked)return;a.invoked=!0;
a.methods=["trackSubmit","trackClick","trackLink","trackForm","pageview","identify","reset","group","track","ready","alias","debug","page","screen","once","off","on","addSourceMiddleware","addIntegrationMiddleware","setAnonymousId","addDestinationMiddleware","register"];
a.factory=function(m){return function(){var t=Array.prototype.slice.call(arguments);t.unshift(m);a.push(t);return a}};
for(var i=0;i<a.methods.length;i++){var k=a.methods[i];a[k]=a.factory(k)}
a.load=function(key,o){var t=document.createElement("script");t.type="text/javascript";t.async=!0;t.setAttribute("data-global-segment-analytics-key","analytics");t.src=${JSON.stringify(cdn)}+"/analytics.js/v1/"+key+"/analytics.min.js";var n=document.getElementsByTagName("script")[0];n.parentNode.insertBefore(t,n);a._loadOptions=o};
a._writeKey=${JSON.stringify(SEGMENT_WRITE_KEY)};a._cdn=${JSON.stringify(cdn)};a.SNIPPET_VERSION="5.2.1";
a.load(${JSON.stringify(SEGMENT_WRITE_KEY)});a.ready(function(){window.__benchMark("ready")});a.page()}();
</script>`

/** PostHog's snippet, loading array.js from the vendor origin as its api_host. */
const posthogSnippet = (host: string) => `<script>
!function(t,e){var o,n,p,r;e.__SV||(window.posthog=e,e._i=[],e.init=function(i,s,a){function g(t,e){var o=e.split(".");2==o.length&&(t=t[o[0]],e=o[1]),t[e]=function(){t.push([e].concat(Array.prototype.slice.call(arguments,0)))}}(p=t.createElement("script")).type="text/javascript",p.crossOrigin="anonymous",p.async=!0,p.src=s.api_host+"/static/array.js",(r=t.getElementsByTagName("script")[0]).parentNode.insertBefore(p,r);var u=e;for(void 0!==a?u=e[a]=[]:a="posthog",u.people=u.people||[],u.toString=function(t){var e="posthog";return"posthog"!==a&&(e+="."+a),t||(e+=" (stub)"),e},u.people.toString=function(){return u.toString(1)+".people (stub)"},o="init capture register register_once register_for_session unregister unregister_for_session getFeatureFlag getFeatureFlagPayload isFeatureEnabled reloadFeatureFlags updateEarlyAccessFeatureEnrollment getEarlyAccessFeatures on onFeatureFlags onSessionId getSurveys getActiveMatchingSurveys renderSurvey canRenderSurvey identify setPersonProperties group resetGroups setPersonPropertiesForFlags resetPersonPropertiesForFlags setGroupPropertiesForFlags resetGroupPropertiesForFlags reset get_distinct_id getGroups get_session_id get_session_replay_url alias set_config startSessionRecording stopSessionRecording sessionRecordingStarted captureException loadToolbar get_property getSessionProperty createPersonProfile opt_in_capturing opt_out_capturing has_opted_in_capturing has_opted_out_capturing clear_opt_in_out_capturing debug".split(" "),n=0;n<o.length;n++)g(u,o[n]);e._i.push([i,s,a])},e.__SV=1)}(document,window.posthog||[]);
posthog.init(${JSON.stringify(POSTHOG_TOKEN)},{api_host:${JSON.stringify(host)},person_profiles:"identified_only",opt_out_useragent_filter:true,loaded:function(){window.__benchMark("ready")}});
</script>`

function scenarios(serviceUrl: string, vendorUrl: string): Scenario[] {
  const script = (attributes: string) =>
    `${REFERRAL_STUB}\n<script async src="${serviceUrl}/referral-widget.js" data-key="${PUBLIC_KEY}"${attributes}></script>`
  return [
    {
      name: 'blank',
      label: 'blank page',
      readyMark: 'load',
      readyMeaning: 'the load event',
      origin: 'none',
      html: page(''),
    },
    {
      name: 'ours-tracking',
      label: 'referral-widget, tracking only',
      readyMark: 'api',
      readyMeaning: 'window.Referral is the command API (the script has run)',
      origin: 'service',
      html: page(script('')),
    },
    {
      name: 'ours-panel',
      label: 'referral-widget, with the panel',
      readyMark: 'panel',
      readyMeaning: '[data-part=root][data-state=ready] in the panel’s shadow root',
      origin: 'service',
      html: page(`<div data-referral-widget></div>\n${script(' data-user-id="alice"')}`),
    },
    {
      name: 'analytics-next',
      label: '@segment/analytics-next',
      readyMark: 'ready',
      readyMeaning: 'analytics.ready() callback',
      origin: 'vendor',
      html: page(segmentSnippet(vendorUrl)),
    },
    {
      name: 'posthog-js',
      label: 'posthog-js',
      readyMark: 'ready',
      readyMeaning: 'the init `loaded` callback',
      origin: 'vendor',
      html: page(posthogSnippet(vendorUrl)),
    },
  ]
}

// --- in-page instruments --------------------------------------------------------------------

interface BenchState {
  marks: Record<string, number>
  setItem: number
  removeItem: number
  longTasks: Array<{ start: number; duration: number }>
}
type BenchWindow = Window & { __bench: BenchState; __benchMark(name: string): void }
type ReferralCall = ((method: string, ...args: unknown[]) => unknown) & { track?: unknown }

/**
 * Runs before any page script: marks (the load event, window.Referral becoming the command API,
 * the panel's ready state inside its shadow root, the vendors' ready callbacks), counts
 * localStorage writes and removals, and records long tasks.
 */
function instrument() {
  const w = window as unknown as BenchWindow
  const bench: BenchState = { marks: {}, setItem: 0, removeItem: 0, longTasks: [] }
  w.__bench = bench
  const mark = (name: string) => {
    if (!(name in bench.marks)) bench.marks[name] = performance.now()
  }
  w.__benchMark = mark
  addEventListener('load', () => mark('load'))

  const setItem = Storage.prototype.setItem
  const removeItem = Storage.prototype.removeItem
  Storage.prototype.setItem = function (this: Storage, key: string, value: string) {
    if (this === window.localStorage) bench.setItem += 1
    setItem.call(this, key, value)
  }
  Storage.prototype.removeItem = function (this: Storage, key: string) {
    if (this === window.localStorage) bench.removeItem += 1
    removeItem.call(this, key)
  }

  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        bench.longTasks.push({ start: entry.startTime, duration: entry.duration })
      }
    }).observe({ type: 'longtask', buffered: true })
  } catch {
    // no long task timing: the trace still gives the longest task
  }

  let referral: unknown
  Object.defineProperty(window, 'Referral', {
    configurable: true,
    enumerable: true,
    get: () => referral,
    set: (value: unknown) => {
      referral = value
      if (typeof value === 'function' && typeof (value as ReferralCall).track === 'function') {
        mark('api')
      }
    },
  })

  const attachShadow = Element.prototype.attachShadow
  Element.prototype.attachShadow = function (this: Element, init: ShadowRootInit) {
    const root = attachShadow.call(this, init)
    const observer = new MutationObserver(() => {
      if (root.querySelector('[data-part="root"][data-state="ready"]')) {
        mark('panel')
        observer.disconnect()
      }
    })
    observer.observe(root, { subtree: true, childList: true, attributes: true })
    return root
  }
}

/**
 * tsx compiles this file with esbuild's keepNames, which wraps named functions in `__name(...)`
 * calls; functions sent into the page need that helper there too.
 */
async function addInstruments(context: BrowserContext) {
  await context.addInitScript({ content: 'globalThis.__name = globalThis.__name || ((fn) => fn)' })
  await context.addInitScript(instrument)
}

// --- measuring ------------------------------------------------------------------------------

type Metrics = Record<string, number>

async function metrics(cdp: CDPSession): Promise<Metrics> {
  const { metrics: list } = await cdp.send('Performance.getMetrics')
  return Object.fromEntries(list.map((metric) => [metric.name, metric.value]))
}

/** Main-thread milliseconds between two metric readings, without DevTools' own commands. */
function mainThread(before: Metrics, after: Metrics) {
  const delta = (name: string) => ((after[name] ?? 0) - (before[name] ?? 0)) * 1000
  return {
    scriptMs: delta('ScriptDuration'),
    taskMs: delta('TaskDuration') - delta('DevToolsCommandDuration'),
    compileMs: delta('V8CompileDuration'),
    layoutMs: delta('LayoutDuration') + delta('RecalcStyleDuration'),
  }
}

/** Waits in the page until the ready mark and the measuring window have passed. */
async function settle(target: Page, readyMark: string) {
  return target.evaluate(
    ({ readyMark, windowMs, afterReadyMs }) =>
      new Promise<{ ready: number | null; marks: Record<string, number> }>((resolve) => {
        const bench = (window as unknown as BenchWindow).__bench
        const check = () => {
          const ready = bench.marks[readyMark]
          const now = performance.now()
          const done =
            ready === undefined ? now > 20_000 : now >= Math.max(windowMs, ready + afterReadyMs)
          if (done) resolve({ ready: ready ?? null, marks: { ...bench.marks } })
          else setTimeout(check, 100)
        }
        check()
      }),
    { readyMark, windowMs: WINDOW_MS, afterReadyMs: AFTER_READY_MS },
  )
}

const isLoopback = (url: string) => {
  try {
    const { hostname, protocol } = new URL(url)
    if (protocol === 'data:' || protocol === 'blob:' || protocol === 'about:') return true
    return hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]'
  } catch {
    return false
  }
}

interface Visit {
  scriptMs: number
  taskMs: number
  readyMs: number | null
  /** Requests the page made to the library's origin (scripts and API), preflights apart. */
  requests: number
  scriptRequests: number
  apiRequests: number
  preflights: number
  /** Bytes of script the library's origin served for this visit. */
  scriptBytes: Size
  requestPaths: string[]
  foreign: string[]
}

interface Environment {
  browser: Browser
  service: Awaited<ReturnType<typeof startServiceOrigin>>
  host: Awaited<ReturnType<typeof startHostOrigin>>
  vendor: Awaited<ReturnType<typeof startVendorOrigin>>
  /** Non-loopback requests any page tried (answered with a resolver error, never sent). */
  foreign: string[]
}

function scriptFileOf(scenario: Scenario, path: string): string | undefined {
  if (scenario.origin === 'vendor') return vendorFile(path.split('?')[0] ?? path)
  const clean = path.split('?')[0] ?? path
  return /^\/referral-widget(-ui)?\.js$/.test(clean) ? join(ROOT, 'dist', clean) : undefined
}

const sizeCache = new Map<string, Size>()
function cachedSize(file: string): Size {
  let size = sizeCache.get(file)
  if (!size) {
    size = measureFile(file)
    sizeCache.set(file, size)
  }
  return size
}

/** One visit's figures: navigation, settle, read the metrics and the origin's request log. */
async function visit(
  env: Environment,
  scenario: Scenario,
  target: Page,
  cdp: CDPSession,
  navigate: () => Promise<unknown>,
): Promise<Visit> {
  const log =
    scenario.origin === 'service'
      ? env.service.requests
      : scenario.origin === 'vendor'
        ? env.vendor.requests
        : []
  const originUrl =
    scenario.origin === 'service'
      ? env.service.url
      : scenario.origin === 'vendor'
        ? env.vendor.url
        : ''
  const seen: string[] = []
  const foreign: string[] = []
  const onRequest = (request: { url(): string }) => {
    const url = request.url()
    if (!isLoopback(url)) foreign.push(url)
    else if (originUrl && url.startsWith(originUrl)) seen.push(url.slice(originUrl.length))
  }
  target.on('request', onRequest)
  const logStart = log.length
  const before = await metrics(cdp)
  await navigate()
  const { ready } = await settle(target, scenario.readyMark)
  const after = await metrics(cdp)
  target.off('request', onRequest)
  const served = log.slice(logStart)
  const preflights = served.filter((request) => request.method === 'OPTIONS').length
  const scriptFiles = served
    .filter((request) => request.method === 'GET')
    .map((request) => scriptFileOf(scenario, request.path))
    .filter((file): file is string => file !== undefined)
  const scriptBytes = scriptFiles.map(cachedSize).reduce(
    (sum, size) => ({
      raw: sum.raw + size.raw,
      gzip: sum.gzip + size.gzip,
      brotli: sum.brotli + size.brotli,
    }),
    { raw: 0, gzip: 0, brotli: 0 },
  )
  const scriptRequests = seen.filter((path) => scriptFileOf(scenario, path) !== undefined).length
  const { scriptMs, taskMs } = mainThread(before, after)
  env.foreign.push(...foreign)
  return {
    scriptMs,
    taskMs,
    readyMs: ready,
    requests: seen.length,
    scriptRequests,
    apiRequests: seen.length - scriptRequests,
    preflights,
    scriptBytes,
    requestPaths: seen,
    foreign,
  }
}

async function pageLoadRun(env: Environment, scenario: Scenario, url: string, repeat: boolean) {
  const context = await env.browser.newContext({ locale: 'en-US' })
  try {
    await addInstruments(context)
    const target = await context.newPage()
    const cdp = await context.newCDPSession(target)
    await cdp.send('Performance.enable')
    const first = await visit(env, scenario, target, cdp, () =>
      target.goto(url, { waitUntil: 'load' }),
    )
    const again = repeat
      ? await visit(env, scenario, target, cdp, () => target.reload({ waitUntil: 'load' }))
      : undefined
    return { first, again }
  } finally {
    await context.close()
  }
}

// --- track bursts ---------------------------------------------------------------------------

interface BurstRun {
  loopMs: number
  mainThreadMs: number
  scriptMs: number
  longestTaskMs: number
  longTasksOver50ms: number
  deliveredAfterMs: number
  storageWritesUntilStored: number
  storageWritesUntilDelivered: number
  storageRemovals: number
  eventRequests: number
  eventPreflights: number
  queuedEvents: number
  droppedEvents: number
  storedChars: number
  storedKeyChars: number
}

interface TraceEvent {
  name?: string
  ph?: string
  pid?: number
  tid?: number
  dur?: number
  args?: { name?: string }
}

/** The longest top-level task on a renderer's main thread in a Chromium trace, in ms. */
function longestTask(trace: Buffer): number {
  const parsed = JSON.parse(trace.toString('utf8')) as TraceEvent[] | { traceEvents: TraceEvent[] }
  const events = Array.isArray(parsed) ? parsed : parsed.traceEvents
  const mains = new Set(
    events
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  )
  const byThread = new Map<string, { total: number; longest: number }>()
  for (const event of events) {
    if (event.name !== 'RunTask' || event.ph !== 'X' || event.dur === undefined) continue
    const thread = `${event.pid}:${event.tid}`
    if (!mains.has(thread)) continue
    const entry = byThread.get(thread) ?? { total: 0, longest: 0 }
    entry.total += event.dur
    entry.longest = Math.max(entry.longest, event.dur)
    byThread.set(thread, entry)
  }
  // The page's renderer is the busiest one during a burst.
  const busiest = [...byThread.values()].sort((a, b) => b.total - a.total)[0]
  return busiest ? busiest.longest / 1000 : Number.NaN
}

async function burstRun(env: Environment, url: string, calls: number): Promise<BurstRun> {
  const context = await env.browser.newContext({ locale: 'en-US' })
  try {
    await addInstruments(context)
    const target = await context.newPage()
    target.on('request', (request) => {
      if (!isLoopback(request.url())) env.foreign.push(request.url())
    })
    const cdp = await context.newCDPSession(target)
    await cdp.send('Performance.enable')
    await target.goto(url, { waitUntil: 'load' })
    await target.waitForFunction(() => (window as unknown as BenchWindow).__bench.marks.api)
    await target.waitForTimeout(500) // the sender's Web Lock, any start-up request
    // The first delivery answer is held back 300 ms, so the stored queue is read before any of
    // it is confirmed and removed.
    env.service.service.faults.set({ kind: 'slow', count: 1, delayMs: 300 })
    const logStart = env.service.requests.length
    const before = await metrics(cdp)
    await env.browser.startTracing(target, {
      categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel'],
    })
    const stored = await target.evaluate(
      (n) =>
        new Promise<{
          loopMs: number
          start: number
          queued: number
          chars: number
          keyChars: number
          writes: number
          writesBefore: number
          removalsBefore: number
        }>((resolve) => {
          const bench = (window as unknown as BenchWindow).__bench
          const referral = (window as unknown as { Referral: ReferralCall }).Referral
          setTimeout(() => {
            const writesBefore = bench.setItem
            const removalsBefore = bench.removeItem
            const start = performance.now()
            for (let i = 0; i < n; i++) referral('track', 'signup', { userId: `u${i}` })
            const loopMs = performance.now() - start
            // The burst's events are written in a microtask after this task: read them next task.
            setTimeout(() => {
              let chars = 0
              let keyChars = 0
              for (let i = 0; i < localStorage.length; i++) {
                const key = localStorage.key(i)
                if (!key?.startsWith('referral:')) continue
                chars += (localStorage.getItem(key) ?? '').length
                keyChars += key.length
              }
              resolve({
                loopMs,
                start,
                queued: Number(referral('queueSize')),
                chars,
                keyChars,
                writes: bench.setItem - writesBefore,
                writesBefore,
                removalsBefore,
              })
            }, 0)
          }, 0)
        }),
      calls,
    )
    const drained = await target.evaluate(
      ({ start, writesBefore, removalsBefore }) =>
        new Promise<{ at: number; writes: number; removals: number; longTasks: number }>(
          (resolve) => {
            const bench = (window as unknown as BenchWindow).__bench
            const referral = (window as unknown as { Referral: ReferralCall }).Referral
            const check = () => {
              const size = Number(referral('queueSize'))
              if (size === 0 || performance.now() - start > 60_000) {
                resolve({
                  at: performance.now() - start,
                  writes: bench.setItem - writesBefore,
                  removals: bench.removeItem - removalsBefore,
                  longTasks: bench.longTasks.filter((task) => task.start >= start - 1).length,
                })
              } else setTimeout(check, 25)
            }
            check()
          },
        ),
      stored,
    )
    const after = await metrics(cdp)
    const trace = await env.browser.stopTracing()
    env.service.service.faults.set(null)
    const served = env.service.requests.slice(logStart)
    const events = served.filter((request) => request.path.startsWith('/v1/events'))
    const { scriptMs, taskMs } = mainThread(before, after)
    return {
      loopMs: stored.loopMs,
      mainThreadMs: taskMs,
      scriptMs,
      longestTaskMs: longestTask(trace),
      longTasksOver50ms: drained.longTasks,
      deliveredAfterMs: drained.at,
      storageWritesUntilStored: stored.writes,
      storageWritesUntilDelivered: drained.writes,
      storageRemovals: drained.removals,
      eventRequests: events.filter((request) => request.method === 'POST').length,
      eventPreflights: events.filter((request) => request.method === 'OPTIONS').length,
      queuedEvents: stored.queued,
      droppedEvents: calls - stored.queued,
      storedChars: stored.chars,
      storedKeyChars: stored.keyChars,
    }
  } finally {
    await context.close()
  }
}

interface TabsRun {
  calls: number
  eventRequests: number
  callsPerRequest: number
  rateLimited: number
  deliveredAfterMs: number
}

/**
 * Six tabs of one site (one context: shared storage and Web Locks) tracking steadily: one tab
 * sends for all, and sends coalesce, so the requests follow the clock, not the calls.
 */
async function tabsRun(env: Environment, url: string): Promise<TabsRun> {
  const context = await env.browser.newContext({ locale: 'en-US' })
  try {
    await addInstruments(context)
    const pages = []
    for (let i = 0; i < TABS.tabs; i++) {
      const target = await context.newPage()
      target.on('request', (request) => {
        if (!isLoopback(request.url())) env.foreign.push(request.url())
      })
      await target.goto(url, { waitUntil: 'load' })
      await target.waitForFunction(() => (window as unknown as BenchWindow).__bench.marks.api)
      pages.push(target)
    }
    const log = () => env.service.service.requestLog.since(0)
    const logStart = log().at(-1)?.seq ?? 0
    const start = Date.now()
    await Promise.all(
      pages.map((target, tab) =>
        target.evaluate(
          ({ tab, calls, every }) =>
            new Promise<void>((resolve) => {
              const referral = (window as unknown as { Referral: ReferralCall }).Referral
              let n = 0
              const timer = setInterval(() => {
                referral('track', 'signup', { userId: `t${tab}-${n}` })
                n += 1
                if (n === calls) {
                  clearInterval(timer)
                  resolve()
                }
              }, every)
            }),
          { tab, calls: TABS.callsPerTab, every: TABS.everyMs },
        ),
      ),
    )
    const calls = TABS.tabs * TABS.callsPerTab
    const served = () =>
      log().filter(
        (entry) => entry.seq > logStart && entry.method === 'POST' && entry.path === '/v1/events',
      )
    const accepted = () =>
      served()
        .flatMap((entry) => entry.summary.split(', '))
        .filter((part) => part.endsWith(' accepted')).length
    while (accepted() < calls && Date.now() - start < 60_000) {
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    const deliveredAfterMs = Date.now() - start
    const requests = served()
    return {
      calls,
      eventRequests: requests.length,
      callsPerRequest: round(calls / Math.max(1, requests.length), 1),
      rateLimited: requests.filter((entry) => entry.status === 429).length,
      deliveredAfterMs,
    }
  } finally {
    await context.close()
  }
}

// --- the run --------------------------------------------------------------------------------

/**
 * The suite's browser, plus a resolver that answers every name but the loopback ones with "not
 * found": nothing leaves the machine, without intercepting (and so slowing) the requests being
 * timed. Each attempt is still seen, reported and counted.
 */
const launchBrowser = () =>
  launch(['--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1'])

/** One untimed load of each page, so no scenario pays for the first read of its files. */
async function warmUp(env: Environment, list: Scenario[], urls: Map<ScenarioName, string>) {
  for (const scenario of list) {
    const context = await env.browser.newContext({ locale: 'en-US' })
    await addInstruments(context)
    const target = await context.newPage()
    const messages: string[] = []
    target.on('console', (message) => messages.push(`${message.type()}: ${message.text()}`))
    target.on('pageerror', (error) => messages.push(`error: ${error.message}`))
    target.on('requestfailed', (request) =>
      messages.push(`failed: ${request.url()} ${request.failure()?.errorText ?? ''}`),
    )
    try {
      await target.goto(urls.get(scenario.name) ?? '', { waitUntil: 'load' })
      await target.waitForFunction(
        (mark) => (window as unknown as BenchWindow).__bench.marks[mark] !== undefined,
        scenario.readyMark,
        { timeout: 20_000 },
      )
    } catch (failure) {
      throw new Error(
        `${scenario.label} never became ready (${scenario.readyMeaning}):\n${messages.join('\n')}`,
        { cause: failure },
      )
    } finally {
      await context.close()
    }
  }
}

/** The commit the working tree is based on, read from .git without running git. */
function gitCommit(): string | null {
  try {
    const gitDir = join(ROOT, '.git')
    const head = readFileSync(join(gitDir, 'HEAD'), 'utf8').trim()
    if (!head.startsWith('ref: ')) return head
    const ref = head.slice(5)
    const loose = join(gitDir, ref)
    if (existsSync(loose)) return readFileSync(loose, 'utf8').trim()
    const packed = readFileSync(join(gitDir, 'packed-refs'), 'utf8')
    const line = packed.split('\n').find((entry) => entry.endsWith(` ${ref}`))
    return line?.split(' ')[0] ?? null
  } catch {
    return null
  }
}

function packageVersion(name: string): string {
  const json = JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8'))
  return (json as { version: string }).version
}

const pad = (value: string | number, width: number) => String(value).padStart(width)
const ms = (value: number | null | undefined) =>
  value === null || value === undefined || Number.isNaN(value) ? '–' : value.toFixed(1)
const kb = (bytes: number) => (bytes / 1000).toFixed(1)

function table(headers: string[], rows: Array<Array<string | number>>) {
  const widths = headers.map((header, i) =>
    Math.max(header.length, ...rows.map((row) => String(row[i] ?? '').length)),
  )
  const line = (cells: Array<string | number>) =>
    cells
      .map((cell, i) => (i === 0 ? String(cell).padEnd(widths[i] ?? 0) : pad(cell, widths[i] ?? 0)))
      .join('  ')
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n')
}

const countSummary = (values: number[]) => summary(values, 0)

async function main() {
  const started = Date.now()
  const builtSizes = sizesModule.sizes()
  const vendorBundles = {
    'analytics-next standalone.js (analytics.min.js)': measureFile(
      join(ANALYTICS_DIST, 'standalone.js'),
    ),
    'posthog-js array.js': measureFile(join(POSTHOG_DIST, 'array.js')),
  }

  const browser = await launchBrowser()
  const service = await startServiceOrigin({ pkRateLimit: 1_000_000 })
  const host = await startHostOrigin()
  host.page('/favicon.ico', { html: '', type: 'image/x-icon' })
  const vendor = await startVendorOrigin()
  const env: Environment = { browser, service, host, vendor, foreign: [] }
  const loadAverage = os.loadavg()

  try {
    const list = scenarios(service.url, vendor.url)
    const urls = new Map(list.map((s) => [s.name, host.page(`/${s.name}`, { html: s.html })]))

    process.stdout.write('warming up… ')
    await warmUp(env, list, urls)
    const firsts = new Map<ScenarioName, Visit[]>(list.map((s) => [s.name, []]))
    const repeats = new Map<ScenarioName, Visit>()
    for (let run = 0; run < RUNS; run++) {
      process.stdout.write(`page loads ${run + 1}/${RUNS}… `)
      // Each round starts with another scenario, so none always runs first.
      const order = list.map((_, i) => list[(i + run) % list.length] as Scenario)
      for (const scenario of order) {
        const { first, again } = await pageLoadRun(
          env,
          scenario,
          urls.get(scenario.name) ?? '',
          run === 0 && scenario.origin !== 'none',
        )
        firsts.get(scenario.name)?.push(first)
        if (again) repeats.set(scenario.name, again)
      }
    }

    const burstResults = new Map<number, BurstRun[]>()
    for (const calls of BURSTS) {
      const runs: BurstRun[] = []
      for (let run = 0; run < BURST_RUNS; run++) {
        process.stdout.write(`burst ${calls} ${run + 1}/${BURST_RUNS}… `)
        runs.push(await burstRun(env, urls.get('ours-tracking') ?? '', calls))
      }
      burstResults.set(calls, runs)
    }
    process.stdout.write(`${TABS.tabs} tabs… `)
    const tabs = await tabsRun(env, urls.get('ours-tracking') ?? '')
    process.stdout.write('100 ms round trip… ')
    const latency100ms = await latencyRuns(browser, RUNS)
    process.stdout.write('service load… ')
    const serviceUnderLoad = await serviceLoad(RUNS)
    process.stdout.write('\n\n')

    // --- figures ------------------------------------------------------------------------
    const blank = firsts.get('blank') ?? []
    const overBlank = (visits: Visit[], pick: (visit: Visit) => number) =>
      summary(visits.map((v, i) => pick(v) - pick(blank[i] ?? v)))
    const requestFigures = (visits: Visit[]) => ({
      requests: countSummary(visits.map((v) => v.requests)),
      scriptRequests: countSummary(visits.map((v) => v.scriptRequests)),
      apiRequests: countSummary(visits.map((v) => v.apiRequests)),
      preflights: countSummary(visits.map((v) => v.preflights)),
      scriptBytesDownloaded: visits[0]?.scriptBytes,
      paths: visits[0]?.requestPaths ?? [],
    })
    const pageLoad = Object.fromEntries(
      list.map((scenario) => {
        const visits = firsts.get(scenario.name) ?? []
        const again = repeats.get(scenario.name)
        return [
          scenario.name,
          {
            label: scenario.label,
            ready: scenario.readyMeaning,
            scriptEvaluationMs: summary(visits.map((v) => v.scriptMs)),
            scriptEvaluationOverBlankMs: overBlank(visits, (v) => v.scriptMs),
            taskMs: summary(visits.map((v) => v.taskMs)),
            taskOverBlankMs: overBlank(visits, (v) => v.taskMs),
            readyAfterNavigationMs: summary(visits.map((v) => v.readyMs ?? Number.NaN)),
            firstVisit: scenario.origin === 'none' ? null : requestFigures(visits),
            repeatVisit: again ? requestFigures([again]) : null,
          },
        ]
      }),
    ) as Record<
      ScenarioName,
      {
        label: string
        ready: string
        scriptEvaluationMs: Summary
        scriptEvaluationOverBlankMs: Summary
        taskMs: Summary
        taskOverBlankMs: Summary
        readyAfterNavigationMs: Summary
        firstVisit: ReturnType<typeof requestFigures> | null
        repeatVisit: ReturnType<typeof requestFigures> | null
      }
    >

    const bursts = Object.fromEntries(
      BURSTS.map((calls) => {
        const runs = burstResults.get(calls) ?? []
        const pick = (f: (run: BurstRun) => number, digits = 1) => summary(runs.map(f), digits)
        return [
          String(calls),
          {
            calls,
            trackLoopMs: pick((r) => r.loopMs),
            mainThreadMs: pick((r) => r.mainThreadMs),
            scriptMs: pick((r) => r.scriptMs),
            longestTaskMs: pick((r) => r.longestTaskMs),
            longTasksOver50ms: pick((r) => r.longTasksOver50ms, 0),
            deliveredAfterMs: pick((r) => r.deliveredAfterMs, 0),
            storageWritesUntilStored: pick((r) => r.storageWritesUntilStored, 0),
            storageWritesUntilDelivered: pick((r) => r.storageWritesUntilDelivered, 0),
            storageRemovalsUntilDelivered: pick((r) => r.storageRemovals, 0),
            eventRequests: pick((r) => r.eventRequests, 0),
            eventPreflights: pick((r) => r.eventPreflights, 0),
            queuedEvents: pick((r) => r.queuedEvents, 0),
            droppedEvents: pick((r) => r.droppedEvents, 0),
            storedBytes: pick((r) => r.storedChars, 0),
            storedBytesPerQueuedEvent: pick((r) => r.storedChars / r.queuedEvents),
            storedBytesPerQueuedEventWithKeys: pick(
              (r) => (r.storedChars + r.storedKeyChars) / r.queuedEvents,
            ),
          },
        ]
      }),
    )

    const ours = pageLoad['ours-tracking']
    const oursPanel = pageLoad['ours-panel']
    const ratio = (a: number, b: number) => round(a / b, 1)
    const ratios = Object.fromEntries(
      (['analytics-next', 'posthog-js'] as const).map((name) => {
        const theirs = pageLoad[name]
        return [
          name,
          {
            scriptEvaluationOverBlank_vsTrackingOnly: ratio(
              theirs.scriptEvaluationOverBlankMs.median,
              ours.scriptEvaluationOverBlankMs.median,
            ),
            taskOverBlank_vsTrackingOnly: ratio(
              theirs.taskOverBlankMs.median,
              ours.taskOverBlankMs.median,
            ),
            taskOverBlank_vsWithPanel: ratio(
              theirs.taskOverBlankMs.median,
              oursPanel.taskOverBlankMs.median,
            ),
            scriptGzipBytes_vsTrackingOnly: ratio(
              theirs.firstVisit?.scriptBytesDownloaded?.gzip ?? Number.NaN,
              builtSizes.totals.trackingOnly.gzip,
            ),
            scriptGzipBytes_vsWithPanel: ratio(
              theirs.firstVisit?.scriptBytesDownloaded?.gzip ?? Number.NaN,
              builtSizes.totals.withPanel.gzip,
            ),
          },
        ]
      }),
    )

    const cpus = os.cpus()
    const results = {
      command: 'npm run bench',
      date: new Date(started).toISOString(),
      commit: gitCommit(),
      commitNote:
        'The commit the working tree was based on; uncommitted changes present at the time are not recorded.',
      durationSeconds: Math.round((Date.now() - started) / 1000),
      machine: {
        os: `${os.type()} ${os.release()} (${os.platform()} ${os.arch()})`,
        cpuModel: cpus[0]?.model ?? 'unknown',
        cpuCount: cpus.length,
        memoryGB: round(os.totalmem() / 1e9, 1),
        loadAverageAtStart: loadAverage.map((value) => round(value, 2)),
        loadAverageAtEnd: os.loadavg().map((value) => round(value, 2)),
        node: process.version,
        chromium: `${browser.version()} (${(await chromiumTarget()).source}, headless)`,
        playwrightCore: packageVersion('playwright-core'),
      },
      units: {
        '*Ms': 'milliseconds',
        'raw, gzip, brotli, *Bytes*': 'bytes',
        'storedBytes*':
          'UTF-16 code units of localStorage values (here the same as bytes: the stored JSON is ASCII)',
        'requests, preflights, *Requests, storage*, *Events, longTasksOver50ms': 'counts',
        ratios: 'their figure divided by ours',
      },
      method: {
        runs: RUNS,
        burstRuns: BURST_RUNS,
        freshContextPerRun: true,
        windowMs: WINDOW_MS,
        afterReadyMs: AFTER_READY_MS,
        figures: [
          'Every timing is the median of the runs (min, max and each run are kept), each run in a fresh browser context; the scenarios take turns within a round, after one untimed warm-up load each.',
          'Main-thread figures come from CDP Performance.getMetrics: ScriptDuration (script evaluation and execution) and TaskDuration minus DevToolsCommandDuration (all main-thread tasks, without the benchmark’s own DevTools commands), read from before navigation to 4 s after it (or 1 s after ready, if later), so posthog-js’s first 3-second flush is inside the window.',
          '"Over blank" is the median of the per-round differences from the blank page (the same HTML without any library).',
          'Ready: the moment the library says it is usable, from navigation start (performance.now()): ours = window.Referral is the command API (tracking only) or the panel root reaches data-state=ready inside its shadow root; analytics-next = analytics.ready(); posthog-js = the init loaded callback.',
          'Requests: every request the page made to the library’s origin (page.on("request"): scripts and API calls); preflights (OPTIONS, invisible to page.on("request")) are counted from that origin’s server log. The repeat visit is a reload in the same context after the first visit’s window, in the first round. Every origin serves scripts with Cache-Control: no-store, so a repeat visit downloads them again.',
          'Bursts: a tracking-only page, 500 ms after the command API appears, runs `for (i < N) Referral("track", "signup", {userId: "u" + i})` in one task. Main-thread time is TaskDuration minus DevToolsCommandDuration from just before the burst until Referral("queueSize") is 0 (every event confirmed by the service); the longest task is the longest RunTask on the renderer main thread in a Chromium trace of that span; long tasks over 50 ms come from a PerformanceObserver("longtask"). Storage writes and removals are counted by wrapping Storage.prototype.setItem/removeItem. Requests are POST /v1/events in the service’s log. Stored bytes are the lengths of every localStorage value under "referral:" right after the burst task (the first delivery answer is held back 300 ms so nothing is confirmed yet), divided by the events queued; the queue holds at most 1,000 events, so a 10,000-call burst drops 9,000 as overflow (announced with event:dropped and one console warning).',
          'The vendors: @segment/analytics-next dist/umd/standalone.js served as analytics.min.js under /analytics.js/v1/<writeKey>/ and posthog-js dist/array.js under /static/, by a loopback origin that stands in for their CDNs and APIs, loaded by their official snippets (Segment 5.2.x: analytics.load + analytics.page(); PostHog: posthog.init with api_host, person_profiles "identified_only" and opt_out_useragent_filter true, since posthog-js otherwise drops every event from a HeadlessChrome user agent as a bot and would send nothing). Their settings and remote config are minimal (no destinations, no session recording, surveys, heatmaps or feature flags; Segment’s metrics sampleRate 0). posthog-js still fetches its surveys extension (/static/<version>/surveys.js) when the remote config says surveys: false; it is counted, as it would be on a real site.',
          'No request leaves the machine: Chromium resolves every host name other than localhost and 127.0.0.1 to "not found"; any attempt is still seen by page.on("request") and listed under foreignRequests.',
        ],
      },
      versions: {
        '@segment/analytics-next': packageVersion('@segment/analytics-next'),
        'posthog-js': packageVersion('posthog-js'),
      },
      sizes: {
        units: 'bytes (gzip level 9, brotli quality 11)',
        artifacts: builtSizes.files,
        totals: builtSizes.totals,
        budgetsGzip: sizesModule.BUDGETS,
        withinBudget: {
          trackingOnly: builtSizes.totals.trackingOnly.gzip <= sizesModule.BUDGETS.trackingOnly,
          withPanel: builtSizes.totals.withPanel.gzip <= sizesModule.BUDGETS.withPanel,
        },
        vendorBundles,
      },
      pageLoad,
      ratios,
      bursts,
      tabs: { ...TABS, ...tabs },
      latency100ms,
      service: serviceUnderLoad,
      foreignRequests: [...new Set(env.foreign)],
    }
    writeFileSync(RESULTS, `${JSON.stringify(results, null, 2)}\n`)
    // In the repository's JSON style, so `npm run lint` passes on the committed file.
    try {
      execFileSync(join(ROOT, 'node_modules/.bin/biome'), ['format', '--write', RESULTS], {
        stdio: 'ignore',
      })
    } catch {
      console.warn(`Could not format ${RESULTS} with Biome; run "npm run format".`)
    }

    // --- the table ----------------------------------------------------------------------
    const out: string[] = []
    out.push(
      `referral-widget benchmark — ${results.date}, ${results.machine.cpuModel} ×${results.machine.cpuCount}, Chromium ${browser.version()}, Node ${process.version}`,
      '',
      'Sizes (bytes)',
      table(
        ['artifact', 'raw', 'gzip', 'brotli'],
        [
          ...Object.entries(builtSizes.files).map(([file, s]) => [file, s.raw, s.gzip, s.brotli]),
          ...Object.entries(vendorBundles).map(([file, s]) => [file, s.raw, s.gzip, s.brotli]),
        ],
      ),
      `tracking only: ${builtSizes.totals.trackingOnly.gzip} B gzip (budget ${sizesModule.BUDGETS.trackingOnly}); with the panel: ${builtSizes.totals.withPanel.gzip} B gzip (budget ${sizesModule.BUDGETS.withPanel})`,
      '',
      `Page load (median of ${RUNS} runs, fresh context each; ms)`,
      table(
        [
          'page',
          'script',
          'script +blank',
          'tasks',
          'tasks +blank',
          'ready',
          'JS gzip kB',
          'req 1st (pre)',
          'req repeat (pre)',
        ],
        list.map((scenario) => {
          const figures = pageLoad[scenario.name]
          const first = figures.firstVisit
          const again = figures.repeatVisit
          return [
            scenario.label,
            ms(figures.scriptEvaluationMs.median),
            scenario.name === 'blank' ? '–' : ms(figures.scriptEvaluationOverBlankMs.median),
            ms(figures.taskMs.median),
            scenario.name === 'blank' ? '–' : ms(figures.taskOverBlankMs.median),
            ms(figures.readyAfterNavigationMs.median),
            first?.scriptBytesDownloaded ? kb(first.scriptBytesDownloaded.gzip) : '–',
            first ? `${first.requests.median} (${first.preflights.median})` : '–',
            again ? `${again.requests.median} (${again.preflights.median})` : '–',
          ]
        }),
      ),
      '',
      `track bursts on a tracking-only page (median of ${BURST_RUNS} runs)`,
      table(
        [
          'calls',
          'loop ms',
          'main thread ms',
          'longest task ms',
          'tasks>50ms',
          'writes (stored/delivered)',
          'requests',
          'queued',
          'dropped',
          'B/event',
          'delivered ms',
        ],
        BURSTS.map((calls) => {
          const b = bursts[String(calls)]
          if (!b) return [calls]
          return [
            calls,
            ms(b.trackLoopMs.median),
            ms(b.mainThreadMs.median),
            ms(b.longestTaskMs.median),
            b.longTasksOver50ms.median,
            `${b.storageWritesUntilStored.median}/${b.storageWritesUntilDelivered.median}`,
            `${b.eventRequests.median} (+${b.eventPreflights.median} pre)`,
            b.queuedEvents.median,
            b.droppedEvents.median,
            ms(b.storedBytesPerQueuedEvent.median),
            b.deliveredAfterMs.median,
          ]
        }),
      ),
      '',
      `${TABS.tabs} tabs tracking a signup every ${TABS.everyMs} ms each: ${tabs.calls} calls in ${tabs.eventRequests} requests (${tabs.callsPerRequest} calls a request), ${tabs.rateLimited} answered 429, all delivered after ${tabs.deliveredAfterMs} ms`,
      '',
      `Panel pages under a ${latency100ms.roundTripMs} ms round trip (median of ${latency100ms.runs}; requests of the first run, ms from navigation)`,
      latencyTable(latency100ms),
      '',
      `The reference service under stored conversions (median of ${RUNS} runs, in-process)`,
      serviceLoadTable(serviceUnderLoad),
      '',
      results.foreignRequests.length === 0
        ? 'No request left loopback.'
        : `Blocked non-loopback requests: ${results.foreignRequests.join(', ')}`,
      `Written to ${RESULTS} (${results.durationSeconds} s).`,
    )
    console.log(out.join('\n'))
  } finally {
    await browser.close()
    await service.close()
    await host.close()
    await vendor.close()
  }
}

await main()

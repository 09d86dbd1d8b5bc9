// Shared set-up for the browser suite: one Chromium per file, a fresh referral service and host
// site per test (so stats, the request log and rate limits never leak between tests), a new
// browser context per test, and checks that run after every test: no request to any origin other
// than the host's and the service's, and no uncaught page error. The host page's markup is in
// widget-page.ts, what the tests read inside a page in in-page.ts.
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest'
import { launch, type PageLog, watchedPage } from './browser.ts'
import { startHostOrigin, startServiceOrigin } from './servers.ts'

export type ServiceOrigin = Awaited<ReturnType<typeof startServiceOrigin>>
export type HostOrigin = Awaited<ReturnType<typeof startHostOrigin>>

/** The seeded active campaign of org_acme's test mode. */
export const SEEDED_CAMPAIGN = 'camp_acmeFriendsAndFamily'
/** Used from Node only (admin calls); never put into a page. */
const SECRET_KEY = 'sk_test_acme'

export interface Stats {
  totalClicks: number
  totalConversions: number
  totalRewardsIssued: number
}

export interface WatchedPage {
  page: Page
  log: PageLog & { dialogs: string[] }
}

/** One POST /v1/events the service answered to a public key, as its request log records it. */
export interface EventRequest {
  seq: number
  at: number
  status: number
  results: Array<{ id: string; status: string }>
}

/** What a test asks the service it runs against, from Node (never through a page). */
export interface ServiceCalls {
  /** An admin call to the service with the secret key. */
  admin(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }>
  stats(campaignId?: string): Promise<Stats>
  /** The referral code of `referrerId`'s link (created if needed). */
  linkCode(referrerId: string, campaignId?: string): Promise<string>
  /** Every public-key POST /v1/events the service answered, oldest first. */
  eventRequests(): EventRequest[]
  /** How many times the service answered `accepted` for each event id. */
  acceptedCounts(): Map<string, number>
}

export interface Harness extends ServiceCalls {
  readonly browser: Browser
  readonly service: ServiceOrigin
  readonly host: HostOrigin
  /** A new context (en-US unless told otherwise; closed after the test). */
  newContext(options?: BrowserContextOptions): Promise<BrowserContext>
  /** A new watched page in `context`: console, errors, CSP violations, requests and dialogs. */
  open(context: BrowserContext): Promise<WatchedPage>
  /** Lets the pages of this test also request `origin` (another host name of the site...). */
  allow(origin: string): void
}

/** A plain object (not null, not an array). */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * Registers the hooks in the calling file and returns the per-test environment. `launchArgs`
 * go to Chromium (e.g. `--host-resolver-rules` mapping more host names to loopback).
 */
export function useHarness(
  options: { launchArgs?: readonly string[]; backForwardCache?: boolean } = {},
): Harness {
  let browser: Browser | undefined
  let service: ServiceOrigin | undefined
  let host: HostOrigin | undefined
  const contexts: BrowserContext[] = []
  const logs: WatchedPage['log'][] = []
  const allowed = new Set<string>()

  beforeAll(async () => {
    browser = await launch(options.launchArgs, { backForwardCache: options.backForwardCache })
  })
  afterAll(async () => {
    await browser?.close()
  })
  beforeEach(async () => {
    service = await startServiceOrigin()
    host = await startHostOrigin()
    // Chromium asks every site for one; an empty answer keeps 404s off the console.
    host.page('/favicon.ico', { html: '', type: 'image/x-icon' })
  })
  afterEach(async () => {
    for (const url of [host?.url, service?.url]) if (url !== undefined) allowed.add(url)
    try {
      const foreign = logs.flatMap((log) =>
        log.requests.filter((url) => {
          try {
            return !allowed.has(new URL(url).origin)
          } catch {
            return true
          }
        }),
      )
      expect(foreign, 'requests to an origin other than the host and the service').toEqual([])
      expect(
        logs.flatMap((log) => log.errors),
        'uncaught errors in the page',
      ).toEqual([])
    } finally {
      logs.length = 0
      allowed.clear()
      for (const context of contexts.splice(0)) await context.close().catch(() => {})
      await service?.close()
      await host?.close()
      service = undefined
      host = undefined
    }
  })

  const required = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${what} is not running (used outside a test?)`)
    return value
  }

  const harness: Harness = {
    get browser() {
      return required(browser, 'the browser')
    },
    get service() {
      return required(service, 'the service')
    },
    get host() {
      return required(host, 'the host site')
    },
    async newContext(options) {
      const context = await harness.browser.newContext({ locale: 'en-US', ...options })
      contexts.push(context)
      return context
    },
    async open(context) {
      const { page, log } = await watchedPage(context)
      const full = Object.assign(log, { dialogs: [] as string[] })
      page.on('dialog', (dialog) => {
        full.dialogs.push(`${dialog.type()}: ${dialog.message()}`)
        void dialog.dismiss().catch(() => {})
      })
      logs.push(full)
      return { page, log: full }
    },
    allow(origin) {
      allowed.add(origin)
    },
    ...serviceCalls(() => harness.service),
  }
  return harness
}

/** The calls a test makes to `service()` from Node: admin, stats, links and what it counted. */
export function serviceCalls(service: () => ServiceOrigin): ServiceCalls {
  const calls: ServiceCalls = {
    async admin(method, path, body) {
      const response = await service().service.app.request(
        path,
        {
          method,
          headers: {
            Authorization: `Bearer ${SECRET_KEY}`,
            ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        },
        // In-process admin calls, as the demo's own: injected faults are for the widget only.
        { demoAdmin: true },
      )
      return { status: response.status, body: await response.json() }
    },
    async stats(campaignId = SEEDED_CAMPAIGN) {
      const { status, body } = await calls.admin('GET', `/v1/campaigns/${campaignId}`)
      if (status !== 200 || !isRecord(body) || !isRecord(body.stats)) {
        throw new Error(`could not read the stats of ${campaignId}: ${status}`)
      }
      const { totalClicks, totalConversions, totalRewardsIssued } = body.stats
      return {
        totalClicks: Number(totalClicks),
        totalConversions: Number(totalConversions),
        totalRewardsIssued: Number(totalRewardsIssued),
      }
    },
    async linkCode(referrerId, campaignId = SEEDED_CAMPAIGN) {
      const { status, body } = await calls.admin('POST', '/v1/links', { campaignId, referrerId })
      if ((status !== 200 && status !== 201) || !isRecord(body) || typeof body.code !== 'string') {
        throw new Error(`could not create a link for ${referrerId}: ${status}`)
      }
      return body.code
    },
    eventRequests() {
      return service()
        .service.requestLog.since(0)
        .filter(
          (entry) =>
            entry.method === 'POST' && entry.path === '/v1/events' && entry.key.startsWith('pk_'),
        )
        .map((entry) => ({
          seq: entry.seq,
          at: Date.parse(entry.at),
          status: entry.status,
          results: entry.summary
            .split(', ')
            .filter((part) => part !== '')
            .map((part) => {
              const [id = '', status = ''] = part.split(' ')
              return { id, status }
            }),
        }))
    },
    acceptedCounts() {
      const counts = new Map<string, number>()
      for (const request of calls.eventRequests()) {
        for (const result of request.results) {
          if (result.status === 'accepted') counts.set(result.id, (counts.get(result.id) ?? 0) + 1)
        }
      }
      return counts
    },
  }
  return calls
}

/** Polls quickly: the suite waits for conditions, never for fixed times. */
export const FAST = { interval: 50, timeout: 10_000 }

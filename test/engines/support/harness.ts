// Set-up for the engine suite, as the browser suite has it (test/e2e/support/harness.ts): the
// engine of this run launched once per file; per test a fresh referral service and host site on
// ports of their own (so storage, stats and rate limits never leak between tests); and after each
// test, no uncaught error in any page it opened. Where the engine is not installed, each test is a
// platform skip naming the Debian packages; in CI (CI=true) that is a failure instead.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest'
import {
  type HostOrigin,
  type ServiceCalls,
  type ServiceOrigin,
  serviceCalls,
} from '../../e2e/support/harness.ts'
import { startHostOrigin, startServiceOrigin } from '../../e2e/support/servers.ts'
import { platformSkip } from '../../support/platform.ts'
import {
  type Engine,
  engineOfRun,
  LAUNCH_MS,
  LAUNCH_TRIES,
  launchEngine,
  missing,
  type Session,
  type SiteHost,
  type Tab,
} from './engine.ts'
import { pageErrors } from './in-page.ts'

/** One POST /v1/events a page sent with its key (not a beacon): when it came and was answered. */
export interface EventPost {
  start: number
  end: number
}

export interface EngineHarness extends ServiceCalls {
  readonly engine: Engine
  readonly service: ServiceOrigin
  readonly host: HostOrigin
  /** A new session (its own storage); closed after the test. */
  newSession(): Promise<Session>
  /** A new session's first tab, on `url`. */
  visit(url: string): Promise<Tab>
  /** While true, the service's events endpoint drops every connection (a network error). */
  unreachable: boolean
  /** The pages' POST /v1/events with a key, in the order they came. */
  eventPosts(): EventPost[]
  /** The host site's `path` under another of its names (SITE_HOSTS, the same server). */
  site(name: SiteHost, path: string): string
}

/** The launch's own deadlines (engine.ts), three tries, and a little more. */
const LAUNCH_TRIES_MS = LAUNCH_TRIES * LAUNCH_MS + 10_000

export function useEngine(): EngineHarness {
  const name = engineOfRun()
  const unavailable = missing(name)
  let engine: Engine | undefined
  let service: ServiceOrigin | undefined
  let host: HostOrigin | undefined
  let posts: EventPost[] = []
  const sessions: Session[] = []
  const tabs: Tab[] = []

  /** Drops the events endpoint's connections while unreachable; times the pages' sends. */
  const intercept = (req: IncomingMessage, res: ServerResponse) => {
    if (!req.url?.startsWith('/v1/events')) return false
    if (harness.unreachable) {
      req.socket.destroy()
      return true
    }
    if (req.method === 'POST' && req.headers.authorization) {
      const post = { start: performance.now(), end: Number.POSITIVE_INFINITY }
      posts.push(post)
      res.once('finish', () => {
        post.end = performance.now()
      })
    }
    return false
  }

  beforeAll(async () => {
    if (unavailable && process.env.CI) throw new Error(`CI runs every engine: ${unavailable}`)
    if (!unavailable) engine = await launchEngine(name)
  }, LAUNCH_TRIES_MS)
  afterAll(async () => {
    await engine?.close()
  })
  beforeEach(async (context) => {
    if (unavailable) platformSkip(context, unavailable)
    harness.unreachable = false
    posts = []
    service = await startServiceOrigin({ intercept })
    host = await startHostOrigin()
    host.page('/favicon.ico', { html: '', type: 'image/x-icon' })
  })
  afterEach(async () => {
    try {
      const errors: string[] = []
      for (const tab of tabs) errors.push(...(await pageErrors(tab).catch(() => [])))
      expect(errors, 'uncaught errors in the pages').toEqual([])
    } finally {
      tabs.length = 0
      for (const session of sessions.splice(0)) await session.close().catch(() => {})
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

  const harness: EngineHarness = {
    unreachable: false,
    get engine() {
      return required(engine, `the ${name} engine`)
    },
    get service() {
      return required(service, 'the service')
    },
    get host() {
      return required(host, 'the host site')
    },
    async newSession() {
      const session = await harness.engine.newSession()
      sessions.push(session)
      return {
        async open(url) {
          const tab = await session.open(url)
          tabs.push(tab)
          return tab
        },
        close: session.close,
      }
    },
    async visit(url) {
      return (await harness.newSession()).open(url)
    },
    eventPosts: () => posts,
    site: (name, path) => `http://${name}:${new URL(harness.host.url).port}${path}`,
    ...serviceCalls(() => harness.service),
  }
  return harness
}

// A sign-up tracked through the documented stub at one of three moments, for the kept-calls tests:
// before the loader runs (the page's own inline script calls the stub ahead of the widget's tag),
// before the tracking part runs (its file is held on the way while the loader keeps the call),
// or after the part ran (Referral.flush() resolved first). Whatever the moment, the service must
// credit it as if the whole widget had been there; these helpers make the moment and read what
// the service counted.
import type { BrowserContext, Page, Route } from 'playwright-core'
import { expect } from 'vitest'
import { FAST, type Harness } from './harness.ts'
import { callReferral } from './in-page.ts'
import { flush } from './site-names.ts'
import { STUB } from './widget-page.ts'

export const TIMINGS = [
  'before the loader runs',
  'before the tracking part runs',
  'after the tracking part ran',
] as const
export type Timing = (typeof TIMINGS)[number]

/** One call of the command API, as `Referral(...call)`. */
export type Call = readonly unknown[]

/** carol signs up: what the site calls on its sign-up page. */
export const SIGNUP: Call = ['track', 'signup', { userId: 'carol' }]

/**
 * The sign-up page's markup before the widget's tag (widgetPage's `before`): at the first timing,
 * the page's own inline script calling the stub; else nothing.
 */
export function callsBefore(timing: Timing, calls: readonly Call[] = [SIGNUP]): string {
  if (timing !== 'before the loader runs') return ''
  const made = calls.map((call) => `Referral(${call.map((arg) => JSON.stringify(arg)).join(',')})`)
  return `<script>${STUB};${made.join(';')}</script>`
}

/** The tracking part's files: with delivery built in or not. */
export const TRACKING_PART = '**/referral-widget-tracking*.js'

/** Every request for the files `pattern` names is held (never answered) until `release()`. */
export async function holdFiles(context: BrowserContext, pattern = TRACKING_PART) {
  const held: Route[] = []
  let released = false
  await context.route(pattern, (route) => {
    if (released) return route.continue()
    held.push(route)
  })
  return {
    /** Once the page asked for the part: it goes on its way, and later requests go through. */
    async release() {
      await expect.poll(() => held.length, FAST).toBeGreaterThan(0)
      released = true
      for (const route of held.splice(0)) await route.continue()
      await context.unroute(pattern)
    },
  }
}

/** The loader's record of carol's sign-up, kept in the page's localStorage for the part. */
const signupKept = (page: Page) =>
  page.evaluate(() =>
    Object.keys(localStorage).some(
      (key) =>
        key.startsWith('referral:') &&
        key.includes(':kept:') &&
        / signup carol /.test(`${localStorage.getItem(key)} `),
    ),
  )

/** What the loader keeps for the part, in storage and in memory (its early queueSize()). */
const loaderQueue = (page: Page) =>
  page.evaluate(() =>
    (window as unknown as { Referral: { queueSize(): number } }).Referral.queueSize(),
  )

export interface SignUpAt {
  timing: Timing
  context: BrowserContext
  /**
   * Brings the visitor to the sign-up page (its markup from callsBefore(timing, calls)), waiting
   * for `waitUntil` only: a held tracking part keeps the load event back.
   */
  open(waitUntil: 'load' | 'domcontentloaded'): Promise<Page>
  /** What the page calls; default carol's sign-up. */
  calls?: readonly Call[]
  /**
   * Where the loader keeps the sign-up before the part runs: in storage, or in memory where
   * consent is required and not given yet (nothing may be stored then).
   */
  keptIn?: 'storage' | 'memory'
}

/** The sign-up page opened and its calls made at `timing`; resolves once they were offered. */
export async function signUpAt(h: Harness, options: SignUpAt): Promise<Page> {
  const { timing, context, open, calls = [SIGNUP], keptIn = 'storage' } = options
  const make = async (page: Page) => {
    for (const call of calls) await callReferral(page, ...call)
  }
  if (timing === 'before the loader runs') {
    const page = await open('load') // its inline script made the calls
    await flush(page)
    return page
  }
  if (timing === 'before the tracking part runs') {
    const part = await holdFiles(context)
    const page = await open('domcontentloaded')
    await page.waitForFunction(
      () => typeof (window as { Referral?: unknown }).Referral === 'function',
    )
    await make(page)
    if (keptIn === 'storage') await expect.poll(() => signupKept(page), FAST).toBe(true)
    else await expect.poll(() => loaderQueue(page), FAST).toBe(1)
    await part.release()
    await flush(page)
    return page
  }
  const partFiles = () =>
    h.service.requests.filter(({ path }) => path.startsWith('/referral-widget-tracking')).length
  const before = partFiles()
  const page = await open('load')
  await flush(page)
  // The part ran on this page (flush resolves only once it did, where it was asked for).
  expect(partFiles()).toBe(before + 1)
  await make(page)
  await flush(page)
  return page
}

/**
 * What the service counted, the judge: `clicks` and `conversions` in the campaign's stats, and
 * `events` distinct events from the pages, each accepted once.
 */
export async function expectCounted(
  h: Harness,
  counted: { clicks: number; conversions: number; events: number },
) {
  const stats = async () => {
    const { totalClicks, totalConversions } = await h.stats()
    return { totalClicks, totalConversions }
  }
  const expected = { totalClicks: counted.clicks, totalConversions: counted.conversions }
  await expect.poll(stats, FAST).toEqual(expected)
  await expect.poll(() => h.acceptedCounts().size, FAST).toBe(counted.events)
  expect([...h.acceptedCounts().values()]).toEqual(Array(counted.events).fill(1))
  // Every event in: nothing counted since the stats matched.
  expect(await stats()).toEqual(expected)
}

// Six tabs of one site tracking steadily: how many requests carry their calls, and when all of
// them are delivered.
import { round, TABS } from './common.ts'
import { type Environment, isLoopback } from './environment.ts'
import { addInstruments, type BenchWindow, type ReferralCall } from './instruments.ts'

export interface TabsRun {
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
export async function tabsRun(env: Environment, url: string): Promise<TabsRun> {
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

/** The tabs line of the table. */
export const tabsLine = (tabs: TabsRun) =>
  `${TABS.tabs} tabs tracking a signup every ${TABS.everyMs} ms each: ${tabs.calls} calls in ${tabs.eventRequests} requests (${tabs.callsPerRequest} calls a request), ${tabs.rateLimited} answered 429, all delivered after ${tabs.deliveredAfterMs} ms`

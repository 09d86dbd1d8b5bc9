// The launcher under a 100 ms round trip (issue 41): a signed-in page with `data-launcher`, in
// Chromium's own network emulation (CDP, latency 100 ms, no throughput limit). The time from the
// visitor's click on the launcher until the dialog is open with the referrer's link, in
// milliseconds and in round trips: on a first visit (empty storage and cache), on a repeat visit
// (a reload: campaign and link stored, the files cached as the service serves them), on a first
// visit to a page with `data-campaign` (the link asked for beside the campaign, not after it),
// and after intent (the pointer rested
// on the launcher until the files and requests it started had answered, then the click). Also
// what the page asked for before the click: the launcher file alone, nothing of the service.
// Run by `npm run bench:latency` (results.json, `launcher100ms`).
import type { Browser, Page } from 'playwright-core'
import { startHostOrigin, startServiceOrigin } from '../e2e/support/servers.ts'
import { median, pageBehindLatency } from './common.ts'

const RTT_MS = 100
const CAMPAIGN = 'camp_acmeFriendsAndFamily'

/** In the page: when the launcher was clicked and when the dialog showed the link. */
const WATCH_DIALOG = `(() => {
  const marks = {}
  window.__dialog = marks
  addEventListener('click', () => { if (marks.click === undefined) marks.click = performance.now() }, true)
  const timer = setInterval(() => {
    const root = document.querySelector('[data-referral-dialog]')?.shadowRoot
    if (marks.click !== undefined && root?.querySelector('dialog[open] [data-part="link"]')) {
      marks.ready = performance.now()
      clearInterval(timer)
    }
  }, 4)
})()`

export interface LauncherVisit {
  /** From the click to the dialog open with the link. */
  clickToReadyMs: number
  roundTrips: number
  /** The widget's requests before the click, by path. */
  beforeClick: string[]
}

const LAUNCHER = '[data-part="launcher"]'

async function visit(page: Page, go: () => Promise<unknown>, intent: boolean) {
  const asked: string[] = []
  let clicked = false
  const onRequest = (request: { url(): string }) => {
    if (!clicked) asked.push(new URL(request.url()).pathname)
  }
  page.on('request', onRequest)
  await go()
  await page.locator(LAUNCHER).waitFor()
  if (intent) {
    await page.locator(LAUNCHER).hover()
    await page.waitForLoadState('networkidle')
  } else await page.waitForLoadState('networkidle')
  clicked = true
  await page.locator(LAUNCHER).click()
  await page.waitForFunction(
    () => (window as unknown as { __dialog?: { ready?: number } }).__dialog?.ready !== undefined,
    undefined,
    { timeout: 15_000 },
  )
  page.off('request', onRequest)
  const marks = await page.evaluate(
    () => (window as unknown as { __dialog: { click: number; ready: number } }).__dialog,
  )
  const clickToReadyMs = Math.round(marks.ready - marks.click)
  return {
    clickToReadyMs,
    roundTrips: Math.round((clickToReadyMs / RTT_MS) * 10) / 10,
    beforeClick: asked.filter((path) => !path.endsWith('.ico')),
  } satisfies LauncherVisit
}

export async function launcherLatencyRuns(browser: Browser, runs: number) {
  // The files cached as the service serves them: a repeat visit finds them in the cache.
  const service = await startServiceOrigin({ pkRateLimit: 1_000_000, cachedScripts: true })
  const host = await startHostOrigin()
  host.page('/favicon.ico', { html: '', type: 'image/x-icon' })
  const visits = {
    first: [] as LauncherVisit[],
    campaign: [] as LauncherVisit[],
    repeat: [] as LauncherVisit[],
    intent: [] as LauncherVisit[],
  }
  /** The page of one run; with `data-campaign`, the link request need not wait for the campaign. */
  const pageOf = (path: string, user: string, campaign = '') =>
    host.page(path, {
      html: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Account</title></head><body><main><h1>Account</h1></main><script async src="${service.url}/referral-widget.js" data-key="pk_test_acme" data-user-id="${user}"${campaign && ` data-campaign="${campaign}"`} data-launcher></script></body></html>`,
    })
  try {
    for (let run = 0; run < runs; run++) {
      const url = pageOf(`/launcher-${run}`, `bench-launcher-${run}`)
      for (const kind of ['first', 'intent'] as const) {
        const { context, page } = await pageBehindLatency(browser, RTT_MS, WATCH_DIALOG)
        visits[kind].push(await visit(page, () => page.goto(url), kind === 'intent'))
        if (kind === 'first') visits.repeat.push(await visit(page, () => page.reload(), false))
        await context.close()
      }
      const known = pageOf(`/launcher-campaign-${run}`, `bench-launcher-c${run}`, CAMPAIGN)
      const { context, page } = await pageBehindLatency(browser, RTT_MS, WATCH_DIALOG)
      visits.campaign.push(await visit(page, () => page.goto(known), false))
      await context.close()
    }
  } finally {
    await service.close()
    await host.close()
  }
  const figures = (list: LauncherVisit[]) => ({
    clickToReadyMs: median(list.map((v) => v.clickToReadyMs)),
    roundTrips: median(list.map((v) => v.roundTrips)),
    beforeClick: list[0]?.beforeClick ?? [],
    runs: list,
  })
  return {
    roundTripMs: RTT_MS,
    runs,
    first: figures(visits.first),
    campaign: figures(visits.campaign),
    repeat: figures(visits.repeat),
    intent: figures(visits.intent),
  }
}

/** The table docs/PERFORMANCE.md shows. */
export function launcherTable(result: Awaited<ReturnType<typeof launcherLatencyRuns>>): string {
  const rows = [
    '| visit | click to the dialog with its link | round trips | asked before the click |',
  ]
  rows.push('| --- | --: | --: | --- |')
  for (const [label, figures] of [
    ['first', result.first],
    ['first, with data-campaign', result.campaign],
    ['repeat (campaign and link stored)', result.repeat],
    ['after intent (pointer over the launcher)', result.intent],
  ] as const) {
    rows.push(
      `| ${label} | ${figures.clickToReadyMs} ms | ${figures.roundTrips} | ${figures.beforeClick.join(', ')} |`,
    )
  }
  return rows.join('\n')
}

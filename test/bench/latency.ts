// The panel under a 100 ms round trip (issue 13): Chromium's own network emulation
// (CDP Network.emulateNetworkConditions, latency 100 ms, no throughput limit) in front of the
// local service, on a cold visit (fresh context: empty storage and cache) and a repeat visit (a
// reload in the same context: the campaign and link are in storage). For each visit: the time
// from navigation start until the panel is ready (its root reaches data-state=ready) and until
// the share link shows, every widget request with its start and end, and how many requests
// waited on another: started more than a quarter of a round trip after everything they need had
// answered, behind another widget request that finished in between.
// Run by `npm run bench` (results.json, `latency100ms`), or alone: `npm run bench:latency`, which
// also runs the launcher's (launcher-latency.ts, `launcher100ms`).
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { launch } from '../e2e/support/browser.ts'
import { startHostOrigin, startServiceOrigin } from '../e2e/support/servers.ts'
import { median, pageBehindLatency } from './common.ts'
import { launcherLatencyRuns, launcherTable } from './launcher-latency.ts'

const RTT_MS = 100
const CAMPAIGN = 'camp_acmeFriendsAndFamily'

export interface LatencyRequest {
  name: string
  startMs: number
  endMs: number
  /** The widget requests it started after, though it does not need them. */
  waitedOn: string[]
}

export interface LatencyVisit {
  readyMs: number | null
  linkMs: number | null
  requests: LatencyRequest[]
  waited: number
}

interface Page_ {
  label: string
  attributes: Record<string, string>
}

const PAGES: Record<string, Page_> = {
  'panel, campaign and user known': {
    label: 'panel, data-campaign and data-user-id',
    attributes: { campaign: CAMPAIGN, 'user-id': 'bench-referrer' },
  },
  'panel, newest campaign': {
    label: 'panel, data-user-id only (the newest campaign)',
    attributes: { 'user-id': 'bench-referrer-2' },
  },
}

/** What a widget request is, by its URL: a script file or an API call. */
function nameOf(url: URL): string | null {
  const file = /\/(referral-widget[a-z-]*\.js)$/.exec(url.pathname)?.[1]
  if (file) return file
  if (url.pathname === '/v1/events') return 'POST /v1/events'
  if (url.pathname === '/v1/links') return 'POST /v1/links'
  if (url.pathname.endsWith('/summary')) return 'GET summary'
  if (url.pathname.startsWith('/v1/campaigns')) return 'GET campaign'
  return null
}

/**
 * What each request needs before it can start. The files the loader fetches (the tracking part,
 * the UI file) need the loader; the API calls need the tracking part (a panel page with nothing
 * to send takes it without delivery); the link request also needs the campaign's answer when the
 * page does not name the campaign; the summary needs the link.
 */
function needs(name: string, campaignKnown: boolean): string[] {
  const tracking = ['referral-widget.js', 'referral-widget-tracking.js']
  if (name === 'referral-widget.js') return []
  if (name.endsWith('.js')) return ['referral-widget.js']
  if (name === 'POST /v1/links') return campaignKnown ? tracking : [...tracking, 'GET campaign']
  if (name === 'GET summary') return [...tracking, 'GET campaign', 'POST /v1/links']
  return tracking
}

/**
 * Records, in the page, when the panel is ready and when its link shows (performance.now()),
 * looking every 4 ms (headless Chromium runs no animation frames for a page nobody sees). A
 * string, so the page gets it exactly as written.
 */
const WATCH_PANEL = `(() => {
  const marks = {}
  window.__panel = marks
  const timer = setInterval(() => {
    const root = document.querySelector('[data-referral-widget]')?.shadowRoot
    const state = root?.querySelector('[data-part="root"]')?.getAttribute('data-state')
    if (marks.ready === undefined && state === 'ready') marks.ready = performance.now()
    if (marks.link === undefined && root?.querySelector('[data-part="link"]')) marks.link = performance.now()
    if (marks.link !== undefined) clearInterval(timer)
  }, 4)
})()`

async function visit(page: Page, go: () => Promise<unknown>, campaignKnown: boolean) {
  const requests = new Map<unknown, { name: string; start: number; end: number }>()
  let origin = 0
  const onRequest = (request: { url(): string }) => {
    const name = nameOf(new URL(request.url()))
    if (name) requests.set(request, { name, start: Date.now() - origin, end: Number.NaN })
  }
  const onDone = (request: { url(): string }) => {
    const seen = requests.get(request)
    if (seen) seen.end = Date.now() - origin
  }
  page.on('request', onRequest)
  page.on('requestfinished', onDone)
  page.on('requestfailed', onDone)
  origin = Date.now()
  await go()
  await page.waitForFunction(
    () => (window as unknown as { __panel?: { link?: number } }).__panel?.link !== undefined,
    undefined,
    { timeout: 15_000 },
  )

  // Whatever the page still sends right after (the click, the summary) is part of the visit.
  await page.waitForTimeout(2 * RTT_MS)
  page.off('request', onRequest)
  page.off('requestfinished', onDone)
  page.off('requestfailed', onDone)
  const marks = await page.evaluate(
    () => (window as unknown as { __panel: { ready?: number; link?: number } }).__panel,
  )
  const list = [...requests.values()].sort((a, b) => a.start - b.start)
  const result: LatencyRequest[] = list.map((request) => {
    // It could start once what it needs had answered; a later start waited on whatever widget
    // request finished in between (a quarter of the round trip is allowed for the page's work).
    const required = needs(request.name, campaignKnown)
    const ready = Math.max(
      0,
      ...list.filter((other) => required.includes(other.name)).map((other) => other.end),
    )
    const waitedOn =
      request.start > ready + RTT_MS / 4
        ? list
            .filter((other) => other.end >= ready && other.end <= request.start)
            .map((other) => other.name)
        : []
    return { name: request.name, startMs: request.start, endMs: request.end, waitedOn }
  })
  return {
    readyMs: marks.ready === undefined ? null : Math.round(marks.ready),
    linkMs: marks.link === undefined ? null : Math.round(marks.link),
    requests: result,
    waited: result.filter((request) => request.waitedOn.length > 0).length,
  } satisfies LatencyVisit
}

export async function latencyRuns(browser: Browser, runs: number) {
  const service = await startServiceOrigin({ pkRateLimit: 1_000_000 })
  const host = await startHostOrigin()
  host.page('/favicon.ico', { html: '', type: 'image/x-icon' })
  const results: Record<
    string,
    {
      label: string
      cold: { readyMs: number; linkMs: number; waited: number; runs: LatencyVisit[] }
      repeat: { readyMs: number; linkMs: number; waited: number; runs: LatencyVisit[] }
    }
  > = {}
  try {
    for (const [name, spec] of Object.entries(PAGES)) {
      const attributes = Object.entries({
        key: 'pk_test_acme',
        locale: 'en-US',
        ...spec.attributes,
      })
        .map(([attribute, value]) => ` data-${attribute}="${value}"`)
        .join('')
      const url = host.page(`/latency-${Object.keys(results).length}`, {
        html: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Account</title></head><body><main><h1>Account</h1><div data-referral-widget></div></main><script async src="${service.url}/referral-widget.js"${attributes}></script></body></html>`,
      })
      const cold: LatencyVisit[] = []
      const repeat: LatencyVisit[] = []
      for (let run = 0; run < runs; run++) {
        const { context, page } = await pageBehindLatency(browser, RTT_MS, WATCH_PANEL)
        const known = spec.attributes.campaign !== undefined
        cold.push(await visit(page, () => page.goto(url), known))
        repeat.push(await visit(page, () => page.reload(), known))
        await context.close()
      }
      const figures = (visits: LatencyVisit[]) => ({
        readyMs: median(visits.map((v) => v.readyMs ?? Number.NaN)),
        linkMs: median(visits.map((v) => v.linkMs ?? Number.NaN)),
        waited: median(visits.map((v) => v.waited)),
        runs: visits,
      })
      results[name] = { label: spec.label, cold: figures(cold), repeat: figures(repeat) }
    }
  } finally {
    await service.close()
    await host.close()
  }
  return { roundTripMs: RTT_MS, runs, pages: results }
}

/** The table the README shows. */
export function latencyTable(result: Awaited<ReturnType<typeof latencyRuns>>): string {
  const rows = ['| page | visit | panel ready | link shown | requests | waited on another |']
  rows.push('| --- | --- | --: | --: | --- | --: |')
  for (const page of Object.values(result.pages)) {
    for (const [visit, figures] of [
      ['first', page.cold],
      ['repeat', page.repeat],
    ] as const) {
      const example = figures.runs[0]
      const sequence = (example?.requests ?? [])
        .map((request) => `${request.name} ${request.startMs}–${request.endMs}`)
        .join(', ')
      rows.push(
        `| ${page.label} | ${visit} | ${figures.readyMs} ms | ${figures.linkMs} ms | ${sequence} | ${figures.waited} |`,
      )
    }
  }
  return rows.join('\n')
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const runs = Math.max(3, Number(process.env.BENCH_RUNS ?? 5) || 5)
  const browser = await launch([
    '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1',
  ])
  try {
    const result = await latencyRuns(browser, runs)
    const file = join(import.meta.dirname, 'results.json')
    const results = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>
    results.latency100ms = result
    const launcher = await launcherLatencyRuns(browser, runs)
    results.launcher100ms = launcher
    writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`)
    console.log(latencyTable(result))
    console.log(launcherTable(launcher))
  } finally {
    await browser.close()
  }
}

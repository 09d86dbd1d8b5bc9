// `npm run bench`: what the widget costs a page, measured on the built files in Debian's headless
// Chromium against the local referral service, beside analytics-next and posthog-js loaded from
// their npm packages the way their snippets load them from a CDN (here a loopback origin).
// Prints a table and writes test/bench/results.json. Every page-load figure is the median of
// BENCH_RUNS runs (default 7, at least 5), each in a fresh browser context; the scenarios take
// turns within each round, so a noisy machine slows all of them alike and the ratios hold. The
// track bursts are the median of 5 runs each.
// The parts: common.ts (settings, statistics, tables), environment.ts, vendors.ts and pages.ts
// (what is loaded), instruments.ts (what is read in the page), sizes.ts, page-load.ts and
// page-load-figures.ts, arrival.ts, bursts.ts, tabs.ts, latency.ts, service-load.ts, busy-pages.ts
// (in all three engines), report.ts (results.json).
import os from 'node:os'
import { startHostOrigin, startServiceOrigin } from '../e2e/support/servers.ts'
import { arrivalLine, arrivalRuns } from './arrival.ts'
import { burstFigures, burstRounds, burstTable } from './bursts.ts'
import { busyPages, busyTable } from './busy-pages.ts'
import { RESULTS, RUNS, TABS } from './common.ts'
import { type Environment, launchBrowser } from './environment.ts'
import { latencyRuns, latencyTable } from './latency.ts'
import { pageLoadRounds, warmUp } from './page-load.ts'
import { pageLoadFigures, pageLoadTable, ratiosOf } from './page-load-figures.ts'
import { scenarios } from './pages.ts'
import { buildResults, writeResults } from './report.ts'
import { serviceLoad, serviceLoadTable } from './service-load.ts'
import { measureSizes, sizesTable } from './sizes.ts'
import { tabsLine, tabsRun } from './tabs.ts'
import { startVendorOrigin } from './vendors.ts'

async function main() {
  const started = Date.now()
  const sizes = measureSizes()

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
    const { firsts, repeats } = await pageLoadRounds(env, list, urls)
    process.stdout.write('referred arrivals… ')
    const arrival = await arrivalRuns(env, RUNS)
    const burstResults = await burstRounds(env, urls.get('ours-quiet') ?? '')
    process.stdout.write(`${TABS.tabs} tabs… `)
    const tabs = await tabsRun(env, urls.get('ours-quiet') ?? '')
    process.stdout.write('100 ms round trip… ')
    const latency100ms = await latencyRuns(browser, RUNS)
    process.stdout.write('service load… ')
    const serviceUnderLoad = await serviceLoad(RUNS)
    const busy = await busyPages()
    process.stdout.write('\n\n')

    const pageLoad = pageLoadFigures(list, firsts, repeats)
    const results = await buildResults({
      started,
      loadAverage,
      browser,
      sizes,
      pageLoad,
      ratios: ratiosOf(pageLoad, sizes.builtSizes),
      arrival,
      bursts: burstFigures(burstResults),
      tabs,
      latency100ms,
      serviceUnderLoad,
      busy,
      foreign: env.foreign,
    })
    writeResults(results)

    console.log(
      [
        `referral-widget benchmark — ${results.date}, ${results.machine.cpuModel} ×${results.machine.cpuCount}, Chromium ${browser.version()}, Node ${process.version}`,
        '',
        sizesTable(sizes),
        '',
        pageLoadTable(list, pageLoad),
        '',
        arrivalLine(arrival),
        '',
        burstTable(results.bursts),
        '',
        tabsLine(tabs),
        '',
        `Panel pages under a ${latency100ms.roundTripMs} ms round trip (median of ${latency100ms.runs}; requests of the first run, ms from navigation)`,
        latencyTable(latency100ms),
        '',
        `The reference service under stored conversions (median of ${RUNS} runs, in-process)`,
        serviceLoadTable(serviceUnderLoad),
        '',
        busyTable(busy),
        '',
        results.foreignRequests.length === 0
          ? 'No request left loopback.'
          : `Blocked non-loopback requests: ${results.foreignRequests.join(', ')}`,
        `Written to ${RESULTS} (${results.durationSeconds} s).`,
      ].join('\n'),
    )
  } finally {
    await browser.close()
    await service.close()
    await host.close()
    await vendor.close()
  }
}

await main()

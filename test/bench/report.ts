// results.json: the run's figures with the machine, the method and the versions they came from,
// written in the repository's JSON style.
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { chromiumTarget } from '../e2e/support/browser.ts'
import type { ArrivalFigures } from './arrival.ts'
import type { burstFigures } from './bursts.ts'
import type { busyPages } from './busy-pages.ts'
import {
  AFTER_READY_MS,
  BURST_RUNS,
  RESULTS,
  ROOT,
  RUNS,
  round,
  TABS,
  WINDOW_MS,
} from './common.ts'
import type { latencyRuns } from './latency.ts'
import type { PageLoad, ratiosOf } from './page-load-figures.ts'
import type { serviceLoad } from './service-load.ts'
import { type Sizes, sizesFigures } from './sizes.ts'
import type { TabsRun } from './tabs.ts'

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

/** What one run measured, and when and where. */
interface RunFigures {
  started: number
  loadAverage: number[]
  browser: Browser
  sizes: Sizes
  pageLoad: PageLoad
  ratios: ReturnType<typeof ratiosOf>
  arrival: ArrivalFigures
  bursts: ReturnType<typeof burstFigures>
  tabs: TabsRun
  latency100ms: Awaited<ReturnType<typeof latencyRuns>>
  serviceUnderLoad: Awaited<ReturnType<typeof serviceLoad>>
  busy: Awaited<ReturnType<typeof busyPages>>
  /** Non-loopback requests any page tried. */
  foreign: string[]
}

/** The content of results.json. */
export async function buildResults({
  started,
  loadAverage,
  browser,
  sizes,
  pageLoad,
  ratios,
  arrival,
  bursts,
  tabs,
  latency100ms,
  serviceUnderLoad,
  busy,
  foreign,
}: RunFigures) {
  const cpus = os.cpus()
  return {
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
        'Ready: the moment the library says it is usable, from navigation start (performance.now()): ours = window.Referral is the command API (a quiet visit) or the panel root reaches data-state=ready inside its shadow root; analytics-next = analytics.ready(); posthog-js = the init loaded callback.',
        'Requests: every request the page made to the library’s origin (page.on("request"): scripts and API calls); preflights (OPTIONS, invisible to page.on("request")) are counted from that origin’s server log. The repeat visit is a reload in the same context after the first visit’s window, in the first round. Every origin serves scripts with Cache-Control: no-store, so a repeat visit downloads them again.',
        'Referred arrival: a page with the tag alone, reached through a referral link (?ref=); stored = the first localStorage write of a kept record or a queue chunk (the loader keeps the arrival at once), confirmed = the widget\u2019s event:sent for the click (the service accepted it), both from navigation start; requests to the service\u2019s origin, scripts and API calls.',
        'Bursts: a quiet page (the tag alone; the first call brings the tracking part), 500 ms after the command API appears, runs `for (i < N) Referral("track", "signup", {userId: "u" + i})` in one task. Main-thread time is TaskDuration minus DevToolsCommandDuration from just before the burst until Referral("queueSize") is 0 (every event confirmed by the service); the longest task is the longest RunTask on the renderer main thread in a Chromium trace of that span; long tasks over 50 ms come from a PerformanceObserver("longtask"). Storage writes and removals are counted by wrapping Storage.prototype.setItem/removeItem. Requests are POST /v1/events in the service’s log. Stored bytes are the lengths of every localStorage value under "referral:" right after the burst task (the first delivery answer is held back 300 ms so nothing is confirmed yet), divided by the events queued; the queue holds at most 1,000 events, so a 10,000-call burst drops 9,000 as overflow (announced with event:dropped and one console warning).',
        'The vendors: @segment/analytics-next dist/umd/standalone.js served as analytics.min.js under /analytics.js/v1/<writeKey>/ and posthog-js dist/array.js under /static/, by a loopback origin that stands in for their CDNs and APIs, loaded by their official snippets (Segment 5.2.x: analytics.load + analytics.page(); PostHog: posthog.init with api_host, person_profiles "identified_only" and opt_out_useragent_filter true, since posthog-js otherwise drops every event from a HeadlessChrome user agent as a bot and would send nothing). Their settings and remote config are minimal (no destinations, no session recording, surveys, heatmaps or feature flags; Segment’s metrics sampleRate 0). posthog-js still fetches its surveys extension (/static/<version>/surveys.js) when the remote config says surveys: false; it is counted, as it would be on a real site.',
        'Busy pages (busy-pages.ts), in Chromium, Firefox and WebKit through the engine suite\u2019s drivers (Debian\u2019s browsers; WebKit is WebKitGTK\u2019s MiniBrowser on Xvfb): a 5,000-row table, changed without pause for `seconds` (ticker: one text 16 times a frame, each change its own mutation batch; swap: 200 rows of four cells, 1,000 nodes, replaced each frame), without the tag, with the tag alone and with the panel. Frames per second count requestAnimationFrame callbacks; the widget\u2019s ms per second is the time inside every MutationObserver callback (the page wraps the constructor before the tag and observes nothing itself); the page\u2019s ms per second is the time inside its own frame callbacks (with the ticker it includes the observers\u2019 deliveries it awaits). Medians of `rounds` runs, each in a fresh session after the widget settled.',
        'No request leaves the machine: Chromium resolves every host name other than localhost and 127.0.0.1 to "not found"; any attempt is still seen by page.on("request") and listed under foreignRequests.',
      ],
    },
    versions: {
      '@segment/analytics-next': packageVersion('@segment/analytics-next'),
      'posthog-js': packageVersion('posthog-js'),
    },
    sizes: sizesFigures(sizes),
    pageLoad,
    ratios,
    arrival,
    bursts,
    tabs: { ...TABS, ...tabs },
    latency100ms,
    service: serviceUnderLoad,
    busyPages: busy,
    foreignRequests: [...new Set(foreign)],
  }
}

/** Writes results.json, formatted so `npm run lint` passes on the committed file. */
export function writeResults(results: unknown) {
  writeFileSync(RESULTS, `${JSON.stringify(results, null, 2)}\n`)
  try {
    execFileSync(join(ROOT, 'node_modules/.bin/biome'), ['format', '--write', RESULTS], {
      stdio: 'ignore',
    })
  } catch {
    console.warn(`Could not format ${RESULTS} with Biome; run "npm run format".`)
  }
}

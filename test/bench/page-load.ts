// Page loads: each scenario's first visit (and one repeat visit) in a fresh context, timed on the
// main thread and counted at the library's origin, in rounds after one untimed warm-up load.
import { join } from 'node:path'
import type { CDPSession, Page } from 'playwright-core'
import { measureFile, ROOT, RUNS, type Size } from './common.ts'
import { type Environment, isLoopback } from './environment.ts'
import { addInstruments, type BenchWindow, mainThread, metrics, settle } from './instruments.ts'
import type { Scenario, ScenarioName } from './pages.ts'
import { vendorFile } from './vendors.ts'

export interface Visit {
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

/** One untimed load of each page, so no scenario pays for the first read of its files. */
export async function warmUp(env: Environment, list: Scenario[], urls: Map<ScenarioName, string>) {
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

/** BENCH_RUNS rounds of every scenario, each round starting with another one. */
export async function pageLoadRounds(
  env: Environment,
  list: Scenario[],
  urls: Map<ScenarioName, string>,
) {
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
  return { firsts, repeats }
}

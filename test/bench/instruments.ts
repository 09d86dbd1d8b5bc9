// What the benchmark reads inside and about a page: marks, storage writes and long tasks from an
// init script, main-thread time from CDP, and the wait for a page's measuring window to pass.
import type { BrowserContext, CDPSession, Page } from 'playwright-core'
import { AFTER_READY_MS, WINDOW_MS } from './common.ts'

interface BenchState {
  marks: Record<string, number>
  setItem: number
  removeItem: number
  longTasks: Array<{ start: number; duration: number }>
}
export type BenchWindow = Window & { __bench: BenchState; __benchMark(name: string): void }
export type ReferralCall = ((method: string, ...args: unknown[]) => unknown) & { track?: unknown }

/**
 * Runs before any page script: marks (the load event, window.Referral becoming the command API,
 * the panel's ready state inside its shadow root, the first event the widget stores, the
 * vendors' ready callbacks), counts localStorage writes and removals, and records long tasks.
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
    // The first event the widget keeps: the loader's kept arrival, or a queue chunk.
    if (/^referral:.*:(kept|q):/.test(String(key))) mark('stored')
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
export async function addInstruments(context: BrowserContext) {
  await context.addInitScript({ content: 'globalThis.__name = globalThis.__name || ((fn) => fn)' })
  await context.addInitScript(instrument)
}

type Metrics = Record<string, number>

export async function metrics(cdp: CDPSession): Promise<Metrics> {
  const { metrics: list } = await cdp.send('Performance.getMetrics')
  return Object.fromEntries(list.map((metric) => [metric.name, metric.value]))
}

/** Main-thread milliseconds between two metric readings, without DevTools' own commands. */
export function mainThread(before: Metrics, after: Metrics) {
  const delta = (name: string) => ((after[name] ?? 0) - (before[name] ?? 0)) * 1000
  return {
    scriptMs: delta('ScriptDuration'),
    taskMs: delta('TaskDuration') - delta('DevToolsCommandDuration'),
    compileMs: delta('V8CompileDuration'),
    layoutMs: delta('LayoutDuration') + delta('RecalcStyleDuration'),
  }
}

/** Waits in the page until the ready mark and the measuring window have passed. */
export async function settle(target: Page, readyMark: string) {
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

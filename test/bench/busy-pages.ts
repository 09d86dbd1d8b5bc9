// Busy pages: what the widget's page watch costs a page that changes all the time, in Chromium,
// Firefox and WebKit (the engine suite's drivers, Debian's browsers). Each page holds a 5,000-row
// table (30,000 elements) and changes without pause for BUSY_SECONDS: `ticker` changes one small
// text 16 times a frame, each change its own batch (a clock, a chat); `swap` replaces 1,000 nodes
// every frame, 200 rows of four cells (a grid redrawn). It runs without the tag, with the tag alone (a quiet page) and
// with the panel. Read in the page: frames a second (requestAnimationFrame), and the time spent
// in the widget's MutationObserver callbacks (each timed by a wrapper the page installs before the
// tag; the page itself observes nothing). The widget's promise: at most 10 ms a second in its
// callbacks, and the frame rate within 5 % of the page without the tag.
import { setTimeout as sleep } from 'node:timers/promises'
import { startHostOrigin, startServiceOrigin } from '../e2e/support/servers.ts'
import { widgetPage } from '../e2e/support/widget-page.ts'
import { ENGINES, type EngineName, launchEngine, missing } from '../engines/support/engine.ts'
import { round, type Summary, summary, table } from './common.ts'

export const BUSY_SECONDS = Math.max(2, Number(process.env.BENCH_BUSY_SECONDS ?? 10) || 10)
export const BUSY_ROUNDS = Math.max(1, Number(process.env.BENCH_BUSY_ROUNDS ?? 5) || 5)
/** The widget's share a page may notice: ms a second in its callbacks, and frame rate lost. */
export const BUSY_BUDGET = { observerMsPerSecond: 10, frameRateLoss: 0.05 }

const CHURNS = ['ticker', 'swap'] as const
const VARIANTS = ['no tag', 'tag alone', 'panel'] as const
type Churn = (typeof CHURNS)[number]
type Variant = (typeof VARIANTS)[number]

/** Times every MutationObserver callback of the page (the widget's: the page has none). */
const OBSERVER_CLOCK = `<script>(function () {
  var Native = window.MutationObserver, spent = 0;
  function Timed(callback) {
    return new Native(function (records, observer) {
      var start = performance.now();
      try { callback(records, observer) } finally { spent += performance.now() - start }
    });
  }
  Timed.prototype = Native.prototype;
  window.MutationObserver = Timed;
  window.__observerMs = function () { return spent };
})()</script>`

/** The table, and the churn started by __churn(kind): frames and the churn's own time counted. */
const BUSY_PAGE = `<p id="ticker">0</p><table><tbody id="rows"></tbody><tbody id="swap"></tbody></table>
<script>(function () {
  function row(n, cells) {
    var tr = document.createElement('tr');
    for (var c = 0; c < cells; c++) { var td = document.createElement('td'); td.textContent = n + ':' + c; tr.append(td) }
    return tr;
  }
  var rows = document.getElementById('rows'), swap = document.getElementById('swap');
  var ticker = document.getElementById('ticker'), frame = 0;
  for (var n = 0; n < 4800; n++) rows.append(row(n, 5));
  for (var m = 0; m < 200; m++) swap.append(row(m, 4));
  window.__figures = { frames: 0, churnMs: 0 };
  window.__churn = function (kind) {
    async function tick() {
      var start = performance.now();
      frame++;
      if (kind === 'swap') {
        var next = [];
        for (var i = 0; i < 200; i++) next.push(row(frame * 200 + i, 4));
        swap.replaceChildren.apply(swap, next);
      } else {
        // Sixteen changes, each let out to the observers before the next (its own batch).
        for (var t = 0; t < 16; t++) { ticker.textContent = frame + '.' + t; await Promise.resolve() }
      }
      __figures.frames++;
      __figures.churnMs += performance.now() - start;
      requestAnimationFrame(tick);
    }
    requestAnimationFrame(tick);
  };
})()</script>`

function pageOf(variant: Variant, service: { url: string }): string {
  const body = BUSY_PAGE
  if (variant === 'no tag')
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Busy</title>${OBSERVER_CLOCK}</head><body>${body}</body></html>`
  return widgetPage(service, {
    panel: variant === 'panel',
    head: OBSERVER_CLOCK,
    after: body,
    ...(variant === 'panel' ? { attributes: { 'user-id': 'alice' } } : {}),
  })
}

interface Run {
  framesPerSecond: number
  observerMsPerSecond: number
  churnMsPerSecond: number
}
type Figures = Record<keyof Run, Summary>
export type BusyResults = Partial<Record<EngineName, Record<Churn, Record<Variant, Figures>>>>

/** One page, churning for BUSY_SECONDS once the widget has settled. */
async function runOnce(
  engine: Awaited<ReturnType<typeof launchEngine>>,
  url: string,
  churn: Churn,
): Promise<Run> {
  const session = await engine.newSession()
  try {
    const tab = await session.open(url)
    await sleep(1_500) // the widget's files and first requests done with
    const read = () =>
      tab.evaluate(() => {
        const w = window as unknown as {
          __figures: { frames: number; churnMs: number }
          __observerMs: () => number
        }
        return { ...w.__figures, observerMs: w.__observerMs(), at: performance.now() }
      })
    await tab.evaluate(
      (kind) => (window as unknown as { __churn(k: string): void }).__churn(kind),
      churn,
    )
    await sleep(1_000) // past the first frames
    const start = await read()
    await sleep(BUSY_SECONDS * 1_000)
    const end = await read()
    const seconds = (end.at - start.at) / 1_000
    return {
      framesPerSecond: (end.frames - start.frames) / seconds,
      observerMsPerSecond: (end.observerMs - start.observerMs) / seconds,
      churnMsPerSecond: (end.churnMs - start.churnMs) / seconds,
    }
  } finally {
    await session.close().catch(() => {})
  }
}

/** Every engine installed here, each churn and variant, BUSY_ROUNDS rounds taking turns. */
export async function busyPages(log = (text: string) => process.stdout.write(text)) {
  const service = await startServiceOrigin({ pkRateLimit: 1_000_000 })
  const host = await startHostOrigin()
  host.page('/favicon.ico', { html: '', type: 'image/x-icon' })
  const results: BusyResults = {}
  const skipped: string[] = []
  try {
    for (const name of ENGINES) {
      const absent = missing(name)
      if (absent) {
        skipped.push(absent)
        continue
      }
      log(`busy pages in ${name}… `)
      const engine = await launchEngine(name)
      try {
        const byChurn = {} as Record<Churn, Record<Variant, Figures>>
        for (const churn of CHURNS) {
          const runs = Object.fromEntries(VARIANTS.map((v) => [v, [] as Run[]])) as Record<
            Variant,
            Run[]
          >
          for (let round = 0; round < BUSY_ROUNDS; round++)
            for (const variant of VARIANTS) {
              const url = host.page(`/busy-${churn}-${variant.replace(' ', '-')}-${round}`, {
                html: pageOf(variant, service),
              })
              runs[variant].push(await runOnce(engine, url, churn))
            }
          byChurn[churn] = Object.fromEntries(
            VARIANTS.map((variant) => [
              variant,
              Object.fromEntries(
                (['framesPerSecond', 'observerMsPerSecond', 'churnMsPerSecond'] as const).map(
                  (key) => [key, summary(runs[variant].map((run) => run[key]))],
                ),
              ) as Figures,
            ]),
          ) as Record<Variant, Figures>
        }
        results[name] = byChurn
      } finally {
        await engine.close()
      }
    }
  } finally {
    await service.close()
    await host.close()
  }
  return { seconds: BUSY_SECONDS, rounds: BUSY_ROUNDS, budget: BUSY_BUDGET, results, skipped }
}

/** Whether a page with the tag kept the promise against the page without it. */
export function withinBudget(byVariant: Record<Variant, Figures>, variant: Variant) {
  const base = byVariant['no tag']
  const ours = byVariant[variant]
  const loss = 1 - ours.framesPerSecond.median / base.framesPerSecond.median
  return {
    loss: round(loss * 100, 1),
    ok:
      ours.observerMsPerSecond.median <= BUSY_BUDGET.observerMsPerSecond &&
      loss <= BUSY_BUDGET.frameRateLoss,
  }
}

export function busyTable(busy: Awaited<ReturnType<typeof busyPages>>): string {
  const rows: Array<Array<string | number>> = []
  for (const [engine, byChurn] of Object.entries(busy.results))
    for (const churn of CHURNS)
      for (const variant of VARIANTS) {
        const figures = byChurn[churn][variant]
        const verdict = variant === 'no tag' ? undefined : withinBudget(byChurn[churn], variant)
        rows.push([
          `${engine}, ${churn}, ${variant}`,
          figures.framesPerSecond.median.toFixed(1),
          figures.observerMsPerSecond.median.toFixed(1),
          figures.churnMsPerSecond.median.toFixed(0),
          verdict ? `${verdict.loss.toFixed(1)} %` : '',
          verdict ? (verdict.ok ? 'within' : 'OVER') : '',
        ])
      }
  return [
    `Busy pages (5,000-row table; ${busy.seconds} s a run, median of ${busy.rounds}): the widget's observer at most ${BUSY_BUDGET.observerMsPerSecond} ms/s, frames within ${BUSY_BUDGET.frameRateLoss * 100} %`,
    table(
      ['engine, churn, page', 'frames/s', 'widget ms/s', 'page ms/s', 'frames lost', 'budget'],
      rows,
    ),
    ...busy.skipped.map((why) => `skipped: ${why}`),
  ].join('\n')
}

// The page-load figures: medians, the difference from the blank page, the requests; the vendors'
// ratios to ours; the page-load table.
import { countSummary, kb, ms, RUNS, round, type Summary, summary, table } from './common.ts'
import type { Visit } from './page-load.ts'
import type { Scenario, ScenarioName } from './pages.ts'
import type { BuiltSizes } from './sizes.ts'

/** Each scenario's figures: timings, over the blank page, and requests. */
export function pageLoadFigures(
  list: Scenario[],
  firsts: Map<ScenarioName, Visit[]>,
  repeats: Map<ScenarioName, Visit>,
) {
  const blank = firsts.get('blank') ?? []
  const overBlank = (visits: Visit[], pick: (visit: Visit) => number) =>
    summary(visits.map((v, i) => pick(v) - pick(blank[i] ?? v)))
  const requestFigures = (visits: Visit[]) => ({
    requests: countSummary(visits.map((v) => v.requests)),
    scriptRequests: countSummary(visits.map((v) => v.scriptRequests)),
    apiRequests: countSummary(visits.map((v) => v.apiRequests)),
    preflights: countSummary(visits.map((v) => v.preflights)),
    scriptBytesDownloaded: visits[0]?.scriptBytes,
    paths: visits[0]?.requestPaths ?? [],
  })
  const pageLoad = Object.fromEntries(
    list.map((scenario) => {
      const visits = firsts.get(scenario.name) ?? []
      const again = repeats.get(scenario.name)
      return [
        scenario.name,
        {
          label: scenario.label,
          ready: scenario.readyMeaning,
          scriptEvaluationMs: summary(visits.map((v) => v.scriptMs)),
          scriptEvaluationOverBlankMs: overBlank(visits, (v) => v.scriptMs),
          taskMs: summary(visits.map((v) => v.taskMs)),
          taskOverBlankMs: overBlank(visits, (v) => v.taskMs),
          readyAfterNavigationMs: summary(visits.map((v) => v.readyMs ?? Number.NaN)),
          firstVisit: scenario.origin === 'none' ? null : requestFigures(visits),
          repeatVisit: again ? requestFigures([again]) : null,
        },
      ]
    }),
  ) as Record<
    ScenarioName,
    {
      label: string
      ready: string
      scriptEvaluationMs: Summary
      scriptEvaluationOverBlankMs: Summary
      taskMs: Summary
      taskOverBlankMs: Summary
      readyAfterNavigationMs: Summary
      firstVisit: ReturnType<typeof requestFigures> | null
      repeatVisit: ReturnType<typeof requestFigures> | null
    }
  >
  return pageLoad
}
export type PageLoad = ReturnType<typeof pageLoadFigures>

/** The vendors' figures divided by ours. */
export function ratiosOf(pageLoad: PageLoad, builtSizes: BuiltSizes) {
  const ours = pageLoad['ours-quiet']
  const oursPanel = pageLoad['ours-panel']
  const ratio = (a: number, b: number) => round(a / b, 1)
  const ratios = Object.fromEntries(
    (['analytics-next', 'posthog-js'] as const).map((name) => {
      const theirs = pageLoad[name]
      return [
        name,
        {
          scriptEvaluationOverBlank_vsQuietVisit: ratio(
            theirs.scriptEvaluationOverBlankMs.median,
            ours.scriptEvaluationOverBlankMs.median,
          ),
          taskOverBlank_vsQuietVisit: ratio(
            theirs.taskOverBlankMs.median,
            ours.taskOverBlankMs.median,
          ),
          taskOverBlank_vsWithPanel: ratio(
            theirs.taskOverBlankMs.median,
            oursPanel.taskOverBlankMs.median,
          ),
          scriptGzipBytes_vsQuietVisit: ratio(
            theirs.firstVisit?.scriptBytesDownloaded?.gzip ?? Number.NaN,
            builtSizes.totals.quiet.gzip,
          ),
          scriptGzipBytes_vsWithPanel: ratio(
            theirs.firstVisit?.scriptBytesDownloaded?.gzip ?? Number.NaN,
            builtSizes.totals.withPanel.gzip,
          ),
        },
      ]
    }),
  )
  return ratios
}

/** The page-load table. */
export function pageLoadTable(list: Scenario[], pageLoad: PageLoad): string {
  return [
    `Page load (median of ${RUNS} runs, fresh context each; ms)`,
    table(
      [
        'page',
        'script',
        'script +blank',
        'tasks',
        'tasks +blank',
        'ready',
        'JS gzip kB',
        'req 1st (pre)',
        'req repeat (pre)',
      ],
      list.map((scenario) => {
        const figures = pageLoad[scenario.name]
        const first = figures.firstVisit
        const again = figures.repeatVisit
        return [
          scenario.label,
          ms(figures.scriptEvaluationMs.median),
          scenario.name === 'blank' ? '–' : ms(figures.scriptEvaluationOverBlankMs.median),
          ms(figures.taskMs.median),
          scenario.name === 'blank' ? '–' : ms(figures.taskOverBlankMs.median),
          ms(figures.readyAfterNavigationMs.median),
          first?.scriptBytesDownloaded ? kb(first.scriptBytesDownloaded.gzip) : '–',
          first ? `${first.requests.median} (${first.preflights.median})` : '–',
          again ? `${again.requests.median} (${again.preflights.median})` : '–',
        ]
      }),
    ),
  ].join('\n')
}

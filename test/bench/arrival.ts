// A referred arrival: a visitor lands through a referral link on a page with the tag alone. How
// soon the click is safe in storage (the loader keeps the arrival before anything else loads) and
// how soon the service has confirmed it (the widget's event:sent), from navigation start; and
// what the page downloaded for it. Median of the runs, each in a fresh browser context.
import { countSummary, PUBLIC_KEY, type Summary, summary } from './common.ts'
import { type Environment, isLoopback } from './environment.ts'
import { addInstruments, type BenchWindow } from './instruments.ts'
import { arrivalPage } from './pages.ts'

/** The seeded active campaign of the service's test mode. */
const CAMPAIGN = 'camp_acmeFriendsAndFamily'

export interface ArrivalFigures {
  storedMs: Summary
  confirmedMs: Summary
  /** The widget's files the page downloaded (its requests to the service's origin, scripts only). */
  files: string[]
  requests: Summary
}

async function referralCode(serviceUrl: string): Promise<string> {
  const answer = await fetch(`${serviceUrl}/v1/links`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${PUBLIC_KEY}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ campaignId: CAMPAIGN, referrerId: 'bench-referrer' }),
  })
  return ((await answer.json()) as { code: string }).code
}

export async function arrivalRuns(env: Environment, runs: number): Promise<ArrivalFigures> {
  const url = `${env.host.page('/arrival', { html: arrivalPage(env.service.url) })}?ref=${await referralCode(env.service.url)}`
  const stored: number[] = []
  const confirmed: number[] = []
  const requests: number[] = []
  let files: string[] = []
  for (let run = 0; run < runs; run++) {
    const context = await env.browser.newContext({ locale: 'en-US' })
    try {
      await addInstruments(context)
      const target = await context.newPage()
      const fetched: string[] = []
      target.on('request', (request) => {
        if (!isLoopback(request.url())) env.foreign.push(request.url())
        if (request.url().startsWith(env.service.url)) fetched.push(new URL(request.url()).pathname)
      })
      await target.goto(url)
      const marks = await target.evaluate(
        () =>
          new Promise<Record<string, number>>((resolve, reject) => {
            const bench = (window as unknown as BenchWindow).__bench
            const check = () => {
              if (bench.marks.confirmed !== undefined) resolve({ ...bench.marks })
              else if (performance.now() > 20_000) reject(new Error('the click was not confirmed'))
              else setTimeout(check, 20)
            }
            check()
          }),
      )
      stored.push(marks.stored ?? Number.NaN)
      confirmed.push(marks.confirmed ?? Number.NaN)
      requests.push(fetched.length)
      files = fetched.filter((path) => path.endsWith('.js'))
    } finally {
      await context.close()
    }
  }
  return {
    storedMs: summary(stored),
    confirmedMs: summary(confirmed),
    files,
    requests: countSummary(requests),
  }
}

export const arrivalLine = (figures: ArrivalFigures) =>
  `Referred arrival (median of ${figures.storedMs.runs.length}): the click stored ${figures.storedMs.median} ms and confirmed by the service ${figures.confirmedMs.median} ms after navigation start; ${figures.requests.median} requests to the service (${figures.files.join(', ')}).`

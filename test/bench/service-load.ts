// The reference service under stored conversions: a public key's request of 50 signups (each a
// new visitor who clicked a real code of the seeded campaign) with 0 to 12,000 conversions of
// that campaign already stored, by 500 other referrers; and another organization's request of
// one click, sent right after the signups. The service takes a request's events in one
// uninterrupted pass, so the second request waits for the first: its time includes that wait.
// In-process against the Hono app (no port, a manual clock), a fresh service for every run.
// The stored conversions are put in through the Store interface, as a persistent store would
// hold them; the timed requests go through the whole app. Median of BENCH_RUNS runs (default 5).
// Run by `npm run bench` (results.json, `service`), or alone: `npm run bench:service`.
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import { join } from 'node:path'
import { createService } from '../../demo/service/app.ts'
import { createManualClock, MINUTE } from '../../demo/service/clock.ts'
import { DEMO_CAMPAIGNS, DEMO_KEYS } from '../../demo/service/seed.ts'

const STORED = [0, 1_000, 4_000, 12_000] as const
const SIGNUPS = 50
const REFERRERS = 500
const ACME = { org: 'org_acme', mode: 'test' } as const

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  const upper = sorted[middle] ?? Number.NaN
  return sorted.length % 2 ? upper : ((sorted[middle - 1] ?? upper) + upper) / 2
}
const round = (value: number) => Math.round(value * 10) / 10

async function run(stored: number) {
  const clock = createManualClock()
  const service = createService({ clock, log: () => {}, pkRateLimit: 1e9 })
  const request = (key: string, path: string, body: unknown) =>
    service.app.request(
      path,
      {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      },
      { incoming: { socket: { remoteAddress: '198.51.100.7' } } },
    )
  const linkOf = async (key: string, campaignId: string) => {
    const answer = await request(key, '/v1/links', { campaignId, referrerId: 'bench-referrer' })
    return ((await answer.json()) as { code: string }).code
  }
  const clicks = (code: string, visitors: string[]) => ({
    events: visitors.map((visitorId) => ({ id: `c_${visitorId}`, type: 'click', code, visitorId })),
  })

  const code = await linkOf(DEMO_KEYS.acme.pkTest, DEMO_CAMPAIGNS.acme)
  const otherCode = await linkOf(DEMO_KEYS.globex.pkTest, DEMO_CAMPAIGNS.globex)
  for (let i = 0; i < stored; i++) {
    service.store.addConversion(ACME, {
      campaignId: DEMO_CAMPAIGNS.acme,
      referrerId: `stored-referrer-${i % REFERRERS}`,
      userId: `stored-user-${i}`,
      at: clock.now() - (stored - i) * MINUTE,
      code: `stored${i % REFERRERS}`,
      visitorId: `stored-visitor-${i}`,
      referrerReward: { amount: 10, currency: 'USD' },
    })
  }
  const visitors = Array.from({ length: SIGNUPS }, (_, i) => `bench-visitor-${i}`)
  await request(DEMO_KEYS.acme.pkTest, '/v1/events', clicks(code, visitors))
  clock.advance(MINUTE)

  const timed = async (answer: Response | Promise<Response>, started: number) => {
    const body = (await (await answer).json()) as { results: Array<{ status: string }> }
    if (!body.results.every((result) => result.status === 'accepted')) {
      throw new Error(`not every event was accepted: ${JSON.stringify(body.results)}`)
    }
    return performance.now() - started
  }
  const signups = visitors.map((visitorId, i) => ({
    id: `s_${visitorId}`,
    type: 'signup',
    visitorId,
    userId: `bench-user-${i}`,
  }))
  const started = performance.now()
  const signupMs = timed(request(DEMO_KEYS.acme.pkTest, '/v1/events', { events: signups }), started)
  const otherStarted = performance.now()
  const otherMs = timed(
    request(DEMO_KEYS.globex.pkTest, '/v1/events', clicks(otherCode, ['other-visitor'])),
    otherStarted,
  )
  const figures = { signupMs: await signupMs, otherMs: await otherMs }
  const converted = service.store.conversions(ACME, DEMO_CAMPAIGNS.acme).length
  if (converted !== stored + SIGNUPS)
    throw new Error(`${converted} conversions, not ${stored + SIGNUPS}`)
  return figures
}

export async function serviceLoad(runs: number) {
  for (const stored of STORED) await run(stored) // untimed: the first runs pay for compiling
  // The sizes take turns within a round, so a slower moment of the machine slows all of them.
  const measured = new Map(
    STORED.map((stored) => [stored, [] as Array<Awaited<ReturnType<typeof run>>>]),
  )
  for (let i = 0; i < runs; i++) {
    for (const stored of STORED) measured.get(stored)?.push(await run(stored))
  }
  const figures = (values: number[]) => ({ median: round(median(values)), runs: values.map(round) })
  const rows = STORED.map((stored) => {
    const runsOf = measured.get(stored) ?? []
    return {
      conversionsStored: stored,
      signupRequestMs: figures(runsOf.map((m) => m.signupMs)),
      otherOrganizationRequestMs: figures(runsOf.map((m) => m.otherMs)),
    }
  })
  return {
    date: new Date().toISOString(),
    node: process.version,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    runs,
    signupsPerRequest: SIGNUPS,
    storedReferrers: REFERRERS,
    method:
      'In-process (Hono app.request, manual clock), a fresh service per run. Stored conversions belong to the signups’ campaign, spread over 500 other referrers, put in through the Store interface. Timed: a pk_ request of 50 signups (each a new visitor who clicked the link a minute before), and another organization’s one-click request sent right after it, each from its own start to its answer. Median of the runs.',
    rows,
  }
}

/** The table the README shows. */
export function serviceLoadTable(result: Awaited<ReturnType<typeof serviceLoad>>): string {
  const rows = [
    `| conversions stored | ${result.signupsPerRequest}-signup request | another organization's request right after |`,
    '| --: | --: | --: |',
  ]
  for (const row of result.rows) {
    rows.push(
      `| ${row.conversionsStored.toLocaleString('en-US')} | ${row.signupRequestMs.median.toFixed(1)} ms | ${row.otherOrganizationRequestMs.median.toFixed(1)} ms |`,
    )
  }
  return rows.join('\n')
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await serviceLoad(Math.max(3, Number(process.env.BENCH_RUNS ?? 5) || 5))
  const file = join(import.meta.dirname, 'results.json')
  const results = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>
  results.service = result
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`)
  // In the repository's JSON style, so `npm run lint` passes on the committed file.
  const biome = join(import.meta.dirname, '../../node_modules/.bin/biome')
  execFileSync(biome, ['format', '--write', file])
  console.log(serviceLoadTable(result))
}

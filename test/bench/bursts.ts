// Track bursts: a tracking-only page runs N Referral('track') calls in one task; what that costs
// the main thread, storage and the network until every event is delivered; their table.
import { BURST_RUNS, BURSTS, ms, summary, table } from './common.ts'
import { type Environment, isLoopback } from './environment.ts'
import {
  addInstruments,
  type BenchWindow,
  mainThread,
  metrics,
  type ReferralCall,
} from './instruments.ts'

interface BurstRun {
  loopMs: number
  mainThreadMs: number
  scriptMs: number
  longestTaskMs: number
  longTasksOver50ms: number
  deliveredAfterMs: number
  storageWritesUntilStored: number
  storageWritesUntilDelivered: number
  storageRemovals: number
  eventRequests: number
  eventPreflights: number
  queuedEvents: number
  droppedEvents: number
  storedChars: number
  storedKeyChars: number
}

interface TraceEvent {
  name?: string
  ph?: string
  pid?: number
  tid?: number
  dur?: number
  args?: { name?: string }
}

/** The longest top-level task on a renderer's main thread in a Chromium trace, in ms. */
function longestTask(trace: Buffer): number {
  const parsed = JSON.parse(trace.toString('utf8')) as TraceEvent[] | { traceEvents: TraceEvent[] }
  const events = Array.isArray(parsed) ? parsed : parsed.traceEvents
  const mains = new Set(
    events
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  )
  const byThread = new Map<string, { total: number; longest: number }>()
  for (const event of events) {
    if (event.name !== 'RunTask' || event.ph !== 'X' || event.dur === undefined) continue
    const thread = `${event.pid}:${event.tid}`
    if (!mains.has(thread)) continue
    const entry = byThread.get(thread) ?? { total: 0, longest: 0 }
    entry.total += event.dur
    entry.longest = Math.max(entry.longest, event.dur)
    byThread.set(thread, entry)
  }
  // The page's renderer is the busiest one during a burst.
  const busiest = [...byThread.values()].sort((a, b) => b.total - a.total)[0]
  return busiest ? busiest.longest / 1000 : Number.NaN
}

async function burstRun(env: Environment, url: string, calls: number): Promise<BurstRun> {
  const context = await env.browser.newContext({ locale: 'en-US' })
  try {
    await addInstruments(context)
    const target = await context.newPage()
    target.on('request', (request) => {
      if (!isLoopback(request.url())) env.foreign.push(request.url())
    })
    const cdp = await context.newCDPSession(target)
    await cdp.send('Performance.enable')
    await target.goto(url, { waitUntil: 'load' })
    await target.waitForFunction(() => (window as unknown as BenchWindow).__bench.marks.api)
    // A quiet page: one signup first brings the tracking part (with delivery), and is confirmed
    // before the burst, which then measures the queue itself.
    await target.evaluate(
      () =>
        new Promise<void>((resolve) => {
          const referral = (window as unknown as { Referral: ReferralCall }).Referral
          referral('track', 'signup', { userId: 'first' })
          const check = () =>
            Number(referral('queueSize')) === 0 ? resolve() : setTimeout(check, 25)
          setTimeout(check, 25)
        }),
    )
    await target.waitForTimeout(500) // the sender's Web Lock, any start-up request
    // The first delivery answer is held back 300 ms, so the stored queue is read before any of
    // it is confirmed and removed.
    env.service.service.faults.set({ kind: 'slow', count: 1, delayMs: 300 })
    const logStart = env.service.requests.length
    const before = await metrics(cdp)
    await env.browser.startTracing(target, {
      categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel'],
    })
    const stored = await target.evaluate(
      (n) =>
        new Promise<{
          loopMs: number
          start: number
          queued: number
          chars: number
          keyChars: number
          writes: number
          writesBefore: number
          removalsBefore: number
        }>((resolve) => {
          const bench = (window as unknown as BenchWindow).__bench
          const referral = (window as unknown as { Referral: ReferralCall }).Referral
          setTimeout(() => {
            const writesBefore = bench.setItem
            const removalsBefore = bench.removeItem
            const start = performance.now()
            for (let i = 0; i < n; i++) referral('track', 'signup', { userId: `u${i}` })
            const loopMs = performance.now() - start
            // The burst's events are written in a microtask after this task: read them next task.
            setTimeout(() => {
              let chars = 0
              let keyChars = 0
              for (let i = 0; i < localStorage.length; i++) {
                const key = localStorage.key(i)
                if (!key?.startsWith('referral:')) continue
                chars += (localStorage.getItem(key) ?? '').length
                keyChars += key.length
              }
              resolve({
                loopMs,
                start,
                queued: Number(referral('queueSize')),
                chars,
                keyChars,
                writes: bench.setItem - writesBefore,
                writesBefore,
                removalsBefore,
              })
            }, 0)
          }, 0)
        }),
      calls,
    )
    const drained = await target.evaluate(
      ({ start, writesBefore, removalsBefore }) =>
        new Promise<{ at: number; writes: number; removals: number; longTasks: number }>(
          (resolve) => {
            const bench = (window as unknown as BenchWindow).__bench
            const referral = (window as unknown as { Referral: ReferralCall }).Referral
            const check = () => {
              const size = Number(referral('queueSize'))
              if (size === 0 || performance.now() - start > 60_000) {
                resolve({
                  at: performance.now() - start,
                  writes: bench.setItem - writesBefore,
                  removals: bench.removeItem - removalsBefore,
                  longTasks: bench.longTasks.filter((task) => task.start >= start - 1).length,
                })
              } else setTimeout(check, 25)
            }
            check()
          },
        ),
      stored,
    )
    const after = await metrics(cdp)
    const trace = await env.browser.stopTracing()
    env.service.service.faults.set(null)
    const served = env.service.requests.slice(logStart)
    const events = served.filter((request) => request.path.startsWith('/v1/events'))
    const { scriptMs, taskMs } = mainThread(before, after)
    return {
      loopMs: stored.loopMs,
      mainThreadMs: taskMs,
      scriptMs,
      longestTaskMs: longestTask(trace),
      longTasksOver50ms: drained.longTasks,
      deliveredAfterMs: drained.at,
      storageWritesUntilStored: stored.writes,
      storageWritesUntilDelivered: drained.writes,
      storageRemovals: drained.removals,
      eventRequests: events.filter((request) => request.method === 'POST').length,
      eventPreflights: events.filter((request) => request.method === 'OPTIONS').length,
      queuedEvents: stored.queued,
      droppedEvents: calls - stored.queued,
      storedChars: stored.chars,
      storedKeyChars: stored.keyChars,
    }
  } finally {
    await context.close()
  }
}

/** BURST_RUNS runs of each burst size. */
export async function burstRounds(env: Environment, url: string) {
  const burstResults = new Map<number, BurstRun[]>()
  for (const calls of BURSTS) {
    const runs: BurstRun[] = []
    for (let run = 0; run < BURST_RUNS; run++) {
      process.stdout.write(`burst ${calls} ${run + 1}/${BURST_RUNS}… `)
      runs.push(await burstRun(env, url, calls))
    }
    burstResults.set(calls, runs)
  }
  return burstResults
}

/** Each burst size's figures, medians of its runs. */
export function burstFigures(burstResults: Map<number, BurstRun[]>) {
  return Object.fromEntries(
    BURSTS.map((calls) => {
      const runs = burstResults.get(calls) ?? []
      const pick = (f: (run: BurstRun) => number, digits = 1) => summary(runs.map(f), digits)
      return [
        String(calls),
        {
          calls,
          trackLoopMs: pick((r) => r.loopMs),
          mainThreadMs: pick((r) => r.mainThreadMs),
          scriptMs: pick((r) => r.scriptMs),
          longestTaskMs: pick((r) => r.longestTaskMs),
          longTasksOver50ms: pick((r) => r.longTasksOver50ms, 0),
          deliveredAfterMs: pick((r) => r.deliveredAfterMs, 0),
          storageWritesUntilStored: pick((r) => r.storageWritesUntilStored, 0),
          storageWritesUntilDelivered: pick((r) => r.storageWritesUntilDelivered, 0),
          storageRemovalsUntilDelivered: pick((r) => r.storageRemovals, 0),
          eventRequests: pick((r) => r.eventRequests, 0),
          eventPreflights: pick((r) => r.eventPreflights, 0),
          queuedEvents: pick((r) => r.queuedEvents, 0),
          droppedEvents: pick((r) => r.droppedEvents, 0),
          storedBytes: pick((r) => r.storedChars, 0),
          storedBytesPerQueuedEvent: pick((r) => r.storedChars / r.queuedEvents),
          storedBytesPerQueuedEventWithKeys: pick(
            (r) => (r.storedChars + r.storedKeyChars) / r.queuedEvents,
          ),
        },
      ]
    }),
  )
}

/** The bursts table. */
export function burstTable(bursts: ReturnType<typeof burstFigures>): string {
  return [
    `track bursts on a tracking-only page (median of ${BURST_RUNS} runs)`,
    table(
      [
        'calls',
        'loop ms',
        'main thread ms',
        'longest task ms',
        'tasks>50ms',
        'writes (stored/delivered)',
        'requests',
        'queued',
        'dropped',
        'B/event',
        'delivered ms',
      ],
      BURSTS.map((calls) => {
        const b = bursts[String(calls)]
        if (!b) return [calls]
        return [
          calls,
          ms(b.trackLoopMs.median),
          ms(b.mainThreadMs.median),
          ms(b.longestTaskMs.median),
          b.longTasksOver50ms.median,
          `${b.storageWritesUntilStored.median}/${b.storageWritesUntilDelivered.median}`,
          `${b.eventRequests.median} (+${b.eventPreflights.median} pre)`,
          b.queuedEvents.median,
          b.droppedEvents.median,
          ms(b.storedBytesPerQueuedEvent.median),
          b.deliveredAfterMs.median,
        ]
      }),
    ),
  ].join('\n')
}

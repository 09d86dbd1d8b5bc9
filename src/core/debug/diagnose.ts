// diagnose(): this install as this visitor's browser sees it, as one plain object (diagnosis.ts):
// the build, the key and host, the service asked for the campaign (reachable, how fast), storage
// and the shared cookie written and read back, consent and GPC, the referral held, the queue, and
// the decisions: this page's arrival, the install's checks, and what the last 50 announcements
// say. In debug mode it is printed as a table too.
import { attributionWindowDays } from '../../api/referrer-wire.ts'
import { BUILD } from '../../shared/build.ts'
import { DAY_MS } from '../../shared/timers.ts'
import type { Diagnosis } from '../diagnosis.ts'
import type { DebugCore } from '../tracker-options.ts'
import { arrivalDecisions } from './arrival.ts'
import { checkInstall } from './checks.ts'
import { followRoad } from './road.ts'
import { verdictsOf } from './verdicts.ts'
import { withRule } from './watch.ts'

const iso = (ms: number) => new Date(ms).toISOString()
const days = (ms: number) => Math.round((ms / DAY_MS) * 10) / 10

export async function diagnose(core: DebugCore, print: boolean): Promise<Diagnosis> {
  const install = checkInstall(core)
  const road = followRoad(core, (refused) => install.decisions.push(refused))
  const service = await road.probe()
  road.stop()
  const { campaign } = service
  const told = { service: road.service, online: core.host.isOnline(), refusedBy: road.refusedBy() }
  const decisions = [
    ...arrivalDecisions(core, core.now()),
    ...install.decisions,
    ...core.events.history.flatMap((entry) => verdictsOf(entry, told)),
  ]
  const held = core.attribution.get()
  const capturedAt = held ? Date.parse(held.capturedAt) : 0
  const connection = core.connection()
  const nextTry =
    connection.state === 'rate-limited'
      ? connection.until
      : connection.state === 'retrying'
        ? connection.at
        : null
  const report: Diagnosis = {
    at: iso(core.now()),
    versions: { widget: BUILD },
    key: { mode: core.key.mode, host: install.host, matchesHost: install.keyMatchesHost },
    service: {
      base: core.options.apiBase,
      reachable: service.reachable,
      ms: Math.round(service.ms),
      status: service.status,
      problem: service.problem,
    },
    campaign: campaign && {
      id: campaign.id,
      name: campaign.name,
      active: campaign.status === 'active',
      referrerReward: campaign.referrerReward,
      referredReward: campaign.referredReward,
      rewardTrigger: campaign.rewardTrigger,
      windowDays: attributionWindowDays(campaign.attributionWindow),
    },
    storage: {
      localStorage: install.localStorage,
      cookie: install.cookie,
      cookieDomain: core.options.cookieDomain ?? null,
    },
    consent: {
      required: core.options.consent === 'required',
      state:
        core.options.consent !== 'required'
          ? 'not required'
          : core.consented()
            ? 'given'
            : 'pending',
      gpc: core.host.globalPrivacyControl,
      gpcHonored: core.privacySignal,
    },
    referral: held && {
      code: held.code,
      capturedAt: held.capturedAt,
      ageDays: days(core.now() - capturedAt),
      windowLeftDays: days(capturedAt + core.attribution.windowMs() - core.now()),
      keptIn: [
        install.localStorage === 'ok' ? 'storage' : 'memory',
        ...(install.cookie === 'ok' ? (['cookie'] as const) : []),
      ],
    },
    queue: {
      waiting: core.queueSize(),
      connection: connection.state,
      nextTry: nextTry === null ? null : iso(nextTry),
    },
    decisions: decisions.map((decision) => ({ ...withRule(core, decision), at: iso(decision.at) })),
  }
  if (print) printReport(report)
  return report
}

function printReport(report: Diagnosis) {
  try {
    const { decisions, ...rest } = report
    console.info('[referral] diagnose():')
    console.table(
      Object.entries(rest).map(([part, value]) => ({ part, value: JSON.stringify(value) })),
    )
    console.table(decisions.map(({ code, at }) => ({ at, code })))
  } catch {}
}

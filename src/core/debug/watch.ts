// Debug mode: every decision printed once, as one console line (explain.ts): how this page
// arrived, the install's checks, what happened before debug mode came (the last announcements),
// then each as it comes. Switched off, it prints nothing more, and the tab's switch is let go.
import { DEBUG_SWITCH } from '../../shared/debug-switch.ts'
import { DAY_MS } from '../../shared/timers.ts'
import type { Emitted } from '../emitter.ts'
import type { DebugCore } from '../tracker-options.ts'
import type { CoreEvents } from '../types.ts'
import { arrivalDecisions, arrivedAt } from './arrival.ts'
import { checkInstall, duplicateTags } from './checks.ts'
import { explain } from './explain.ts'
import { followRoad } from './road.ts'
import { switchDebug } from './switch.ts'
import { type Decision, TOLD, verdictsOf } from './verdicts.ts'

/** Decisions that are news, not trouble: printed as information, the others as warnings. */
const FINE = new Set(['referral_captured', 'accepted', 'duplicate', 'offline', 'no_referral'])

/** What a decision's line says beyond its facts: the rule a referral is kept by, and how long. */
export const withRule = (core: DebugCore, decision: Decision): Decision =>
  decision.code === 'referral_captured'
    ? {
        ...decision,
        rule: core.options.firstTouch ? 'first' : 'last',
        windowDays: Math.round(core.attribution.windowMs() / DAY_MS),
      }
    : decision

export function watch(core: DebugCore): () => void {
  // Kept for the tab's session where the address asked for it.
  switchDebug(new URL(arrivedAt(core) || 'about:blank').search)
  const printed = new Set<string>()
  let stopped = false
  const print = (decision: Decision) => {
    const line = explain(withRule(core, decision))
    if (stopped || printed.has(line)) return
    printed.add(line)
    // The page's console may be anything: it never stops the widget.
    try {
      ;(FINE.has(decision.code) ? console.info : console.warn)(line)
    } catch {}
  }
  const road = followRoad(core, print)
  const judge = (told: Emitted<CoreEvents>) => {
    for (const decision of verdictsOf(told, {
      service: road.service,
      online: core.host.isOnline(),
      refusedBy: road.refusedBy(),
    }))
      print(decision)
  }
  const at = core.now()
  for (const decision of arrivalDecisions(core, at)) print(decision)
  for (const decision of checkInstall(core).decisions) print(decision)
  // An async tag runs before the parser has seen the rest of the page: a second tag further
  // down is counted once the page is parsed.
  const parsed = () => {
    const duplicate = duplicateTags(core)
    if (duplicate) print(duplicate)
  }
  if (typeof document !== 'undefined' && document.readyState === 'loading')
    document.addEventListener('DOMContentLoaded', parsed, { once: true })
  // A request that got no answer before debug mode came: the probe finds out why (a CSP
  // refusal is said as it comes), then the past is judged.
  const unanswered = core.events.history.some(
    ([name, payload]) =>
      name === 'unsent' && (payload as { error: { status: number } }).error.status === 0,
  )
  void (unanswered ? road.probe() : Promise.resolve()).then(() => {
    for (const told of core.events.history) judge(told)
  })
  const stops = TOLD.map((name) =>
    core.events.on(name, (payload: unknown) => {
      const told: Emitted<CoreEvents> = [name, payload, core.now()]
      // A request with no answer: the page's CSP may say it refused it a moment later.
      if (name === 'unsent') void road.refusalOrGrace().then(() => judge(told))
      else judge(told)
    }),
  )
  return () => {
    stopped = true
    if (typeof document !== 'undefined') document.removeEventListener('DOMContentLoaded', parsed)
    for (const stop of stops) stop()
    road.stop()
    try {
      sessionStorage.removeItem(DEBUG_SWITCH)
    } catch {}
  }
}

// How this page's arrival was decided, read from what it came with (its address before the
// widget cleaned it) and what is held now: a referral captured (from the address, a hand-off or
// the site's shared cookie), none in the address, one kept from before under first touch, a
// hand-off refused, consent or Global Privacy Control holding it back, a referral past its window.
import { handoffCode } from '../../api/handoff.ts'
import { StoredClicks } from '../persisted.ts'
import { readReferralCode } from '../referral-url.ts'
import type { DebugCore } from '../tracker-options.ts'
import type { Decision } from './verdicts.ts'

/**
 * The page's address as it came, before the widget cleaned its referral out: the navigation's own
 * (history.replaceState leaves it as it was), else the address now (a page without the entry).
 */
export function arrivedAt(core: DebugCore): string {
  try {
    const [navigation] = performance.getEntriesByType('navigation')
    if (navigation?.name) return navigation.name
  } catch {}
  return core.host.href() ?? ''
}

export function arrivalDecisions(core: DebugCore, at: number): Decision[] {
  const { options } = core
  const href = arrivedAt(core)
  const decisions: Decision[] = []
  const decide = (code: string, facts: object = {}) => decisions.push({ ...facts, code, at })
  const code = readReferralCode(href, options.refParams)
  const handoff = handoffCode(href)?.code
  // Read as the tracking core read it (where the page had the reader): refused, its code is a
  // plain arrival's.
  const refused =
    handoff !== undefined && options.handoffArrival?.(href, at)?.visitorId === undefined
  const arrived = code ?? handoff
  const held = core.attribution.get()
  if (options.consent === 'required' && !core.consented())
    decide('consent_pending', { referral: arrived })
  if (refused && options.handoffArrival) decide('handoff_refused', { referral: handoff })
  if (arrived === undefined || arrived === null) {
    decide('no_referral', { params: options.refParams.join(', ') })
    if (held && options.cookieDomain !== undefined)
      decide('referral_captured', { referral: held.code, from: 'cookie' })
  } else if (core.privacySignal) decide('gpc', { referral: arrived })
  else if (held?.code === arrived)
    decide('referral_captured', { referral: arrived, from: code || refused ? 'link' : 'handoff' })
  else if (held && options.firstTouch)
    decide('referral_kept_first', { referral: arrived, held: held.code })
  // A referral this browser arrived with before, held no longer: its window has passed.
  const last = core.persisted.read(StoredClicks, 'clicks')?.codes.at(-1)
  if (!held && last !== undefined && last !== arrived)
    decide('referral_expired', { referral: last })
  return decisions
}

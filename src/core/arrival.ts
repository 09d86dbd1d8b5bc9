// How a page load arrives: a hand-off from another domain of the site (`ref_handoff`), or a
// link's own code (`?ref=`). What the address bar carried is then removed from it. (A referral
// shared by another subdomain, the attribution cookie, is the tracker's to adopt first.) An
// arrival the loader kept for an earlier page (kept.ts) arrives the same way, at its own time and
// with no address bar to clean.
import { type handoffArrival, handoffCode } from '../api/handoff.ts'
import type { AttributionModule } from './attribution.ts'
import { withoutReferral } from './clean-url.ts'
import { readReferralCode } from './referral-url.ts'

export function arrive(arrival: {
  href: string | undefined
  attribution: AttributionModule
  capture: (code: string, at: number) => boolean
  shareAttribution: () => void
  privacySignal: boolean
  now: () => number
  refParams: readonly string[]
  /** Reads a hand-off in the address, where the page has the means (tracker-options.ts). */
  readHandoff: typeof handoffArrival | undefined
  /** Where the address bar is cleaned (`cleanUrl`). */
  replaceUrl: ((url: string) => void) | undefined
}): void {
  const { href, attribution } = arrival
  if (href === undefined) return
  let code = readReferralCode(href, arrival.refParams)
  // Handed off from another domain of the site: a fresh hand-off is adopted, visitor id and
  // capture time as they were, its click already recorded there; any other is a plain arrival.
  // One carried before consent (from this site's pages too) records its click here, once, at the
  // time it was captured.
  const handoff = (arrival.readHandoff ?? handoffCode)(href, arrival.now())
  if (handoff?.visitorId !== undefined && !arrival.privacySignal) {
    const adopted = attribution.adopt(handoff)
    if (adopted && handoff.carried) arrival.capture(handoff.code, Date.parse(handoff.capturedAt))
    else if (adopted) attribution.clicked(handoff.code)
    arrival.shareAttribution()
    if (code === handoff.code) code = null
  } else code ??= handoff?.code ?? null
  if (code) arrival.capture(code, arrival.now())
  const cleaned = arrival.replaceUrl && withoutReferral(href, arrival.refParams)
  if (cleaned) arrival.replaceUrl?.(cleaned)
}

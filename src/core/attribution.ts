// The visitor and how they arrived: an anonymous visitor id, the referral code they arrived with
// (kept for the campaign's attribution window: the latest one, or with first-touch the first),
// and one click per code. Whether they closed the
// banner is the later part's (banner.ts).
import type { TrackedEvent } from '../api/wire.ts'
import { info } from '../shared/log.ts'
import { randomId } from './ids.ts'
import { type Persisted, StoredAttribution, StoredClicks, StoredVisitor } from './persisted.ts'
import type { Attribution } from './stores.ts'

const DAY = 24 * 60 * 60 * 1000
export const DEFAULT_ATTRIBUTION_DAYS = 30
/** How many codes the click and banner memories keep. */
export const REMEMBERED = 50

/* @__NO_SIDE_EFFECTS__ */
export function createAttribution(options: {
  persisted: Persisted
  now: () => number
  random: () => number
  /** Where the visitor's Global Privacy Control signal is honoured and on: nothing is recorded. */
  privacySignal: boolean
  /** `attribution: 'first'`: a referral held within the window is not replaced by a later one. */
  firstTouch: boolean
  /**
   * A reload with no storage to remember the click in: the same `?ref=` in the address bar is the
   * same arrival, recorded when the page first loaded.
   */
  reloadedWithoutStorage: () => boolean
  /** Queues an event for this visitor. */
  enqueue: (event: Omit<TrackedEvent, 'id' | 'visitorId' | 'occurredAt'>) => boolean
}) {
  const { persisted, now } = options
  let windowDays = DEFAULT_ATTRIBUTION_DAYS
  /** Read once per page: a burst of `track` calls parses nothing per call. */
  let visitor: string | undefined
  /** This page's id while storage cannot be read: the stored one is never written over. */
  let unread: string | undefined

  function visitorId(): string {
    if (visitor !== undefined) return visitor
    const stored = persisted.read(StoredVisitor, 'visitor')
    unread ??= randomId('v', options.random)
    if (stored === undefined) return unread
    visitor = stored?.id ?? unread
    if (!stored) persisted.write('visitor', { id: visitor })
    return visitor
  }

  /** The referral held, unless expired or captured more than a day in the future: discarded. */
  function held() {
    const stored = persisted.read(StoredAttribution, 'attribution')
    if (!stored) return null
    const age = now() - stored.capturedAt
    if (age <= windowDays * DAY && age >= -DAY) return stored
    persisted.remove('attribution')
    return null
  }

  /** Whether a referral captured at `capturedAt` replaces the one held (never the other way). */
  const replaces = (capturedAt: number) => {
    const current = held()
    return (
      !current ||
      (options.firstTouch ? capturedAt < current.capturedAt : capturedAt >= current.capturedAt)
    )
  }

  /**
   * Notes a click on `code`; false when one was noted before. Storage unreadable just now: true,
   * and the stored list is left as it is.
   */
  function remember(code: string): boolean {
    const clicks = persisted.read(StoredClicks, 'clicks')
    const codes = clicks?.codes ?? []
    if (codes.includes(code)) return false
    if (clicks !== undefined)
      persisted.write('clicks', { codes: [...codes, code].slice(-REMEMBERED) })
    return true
  }

  function get(): Attribution | null {
    const stored = held()
    if (!stored) return null
    return {
      code: stored.code,
      visitorId: visitorId(),
      capturedAt: new Date(stored.capturedAt).toISOString(),
    }
  }

  return {
    visitorId,
    get,
    /** The campaign's attribution window, once known (30 days until then). */
    setWindowDays(days: number) {
      if (Number.isFinite(days)) windowDays = days
    },
    windowMs: () => windowDays * DAY,
    /**
     * A referral captured on another subdomain (the shared cookie) or domain (a hand-off), newer
     * than any held here (with first-touch: older), is adopted with its visitor id, so a signup
     * here credits the click made there. False when the one held here wins.
     */
    adopt(shared: Attribution): boolean {
      const capturedAt = Date.parse(shared.capturedAt)
      if (!replaces(capturedAt)) return false
      visitor = shared.visitorId
      persisted.write('visitor', { id: visitor })
      persisted.write('attribution', { code: shared.code, capturedAt })
      return true
    },
    /**
     * A click on `code` was recorded for this visitor elsewhere (where they were handed off
     * from): an arrival here by the same code records none.
     */
    clicked(code: string) {
      remember(code)
    },
    /**
     * A visitor arrived through a link: remember the code (with first-touch, unless one is held
     * within the window), and record one click per code. Not where the visitor's Global Privacy
     * Control signal is honoured: then false.
     */
    capture(code: string): boolean {
      if (options.privacySignal) {
        info('Global Privacy Control is on: this visit through a referral link is not recorded.')
        return false
      }
      if (!options.firstTouch || replaces(now()))
        persisted.write('attribution', { code, capturedAt: now() })
      if (remember(code) && !options.reloadedWithoutStorage())
        options.enqueue({ type: 'click', code })
      return true
    },
    /** After forget(): the next event makes a new visitor. */
    reset() {
      visitor = undefined
      unread = undefined
    },
  }
}

export type AttributionModule = ReturnType<typeof createAttribution>

// The visitor and how they arrived: an anonymous visitor id, the referral code they arrived with
// (kept for the campaign's attribution window: the latest one, or with first-touch the first),
// and one click per code. Whether they closed the banner is the later part's (banner.ts).
//
// The window is the campaign's, once a page has known the campaign (kept for the pages after
// it). Until then what is held is kept for the longest window a campaign can have, since the
// service decides what a click is still worth, and first-touch and the cookie use 30 days.
import { MAX_ATTRIBUTION_DAYS, type TrackedEvent } from '../api/wire.ts'
import { info } from '../shared/log.ts'
import { DAY_MS } from '../shared/timers.ts'
import { randomId } from './ids.ts'
import {
  type Persisted,
  StoredAttribution,
  StoredClicks,
  StoredVisitor,
  StoredWindow,
} from './persisted.ts'
import type { Attribution } from './stores.ts'

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
  /**
   * The campaign's window in days, where this page or one before it knew the campaign; null
   * while unknown, undefined until storage was read (once a page).
   */
  let windowDays: number | null | undefined
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

  /** A window the contract allows: stored data is checked as the service's answer is. */
  const allowed = (days: number | undefined) =>
    days !== undefined && days > 0 && days <= MAX_ATTRIBUTION_DAYS ? days : null
  const knownDays = () => {
    if (windowDays === undefined) windowDays = allowed(persisted.read(StoredWindow, 'window')?.days)
    return windowDays
  }
  const windowMs = (unknown: number) => (knownDays() ?? unknown) * DAY_MS
  /** Captured inside `ms` before now, and not more than a day in the future. */
  const within = (capturedAt: number, ms: number) => {
    const age = now() - capturedAt
    return age <= ms && age >= -DAY_MS
  }

  /** The referral held, unless past the window or captured more than a day ahead: discarded. */
  function held() {
    const stored = persisted.read(StoredAttribution, 'attribution')
    if (!stored) return null
    if (within(stored.capturedAt, windowMs(MAX_ATTRIBUTION_DAYS))) return stored
    persisted.remove('attribution')
    return null
  }

  /**
   * Whether a referral captured at `capturedAt` replaces the one held. With first-touch: once the
   * one held is past the window, or when `vouched` (the site's own cookie) for an earlier capture.
   * A hand-off's capture time is anybody's to write in a URL: it never displaces one held here.
   */
  const replaces = (capturedAt: number, vouched = false) => {
    const current = held()
    if (!current) return true
    if (!options.firstTouch) return capturedAt >= current.capturedAt
    return (
      !within(current.capturedAt, windowMs(DEFAULT_ATTRIBUTION_DAYS)) ||
      (vouched && capturedAt < current.capturedAt)
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
    /** The campaign's attribution window, once known: kept for the pages after this one. */
    setWindowDays(days: number) {
      if (allowed(days) === null || days === knownDays()) return
      windowDays = days
      persisted.write('window', { days })
    },
    /** The cookie's lifetime: the campaign's window, or 30 days while it is unknown. */
    windowMs: () => windowMs(DEFAULT_ATTRIBUTION_DAYS),
    /**
     * A referral captured on another subdomain (the shared cookie: `fromCookie`) or domain (a
     * hand-off), inside the window and newer than any held here (with first-touch: older, from the
     * cookie only), is adopted with its visitor id, so a signup here credits the click made there.
     * False when the one held here wins.
     */
    adopt(shared: Attribution, fromCookie = false): boolean {
      const capturedAt = Date.parse(shared.capturedAt)
      // Past the window it would be discarded at once: the visitor id stays this page's.
      if (
        !within(capturedAt, windowMs(MAX_ATTRIBUTION_DAYS)) ||
        !replaces(capturedAt, fromCookie)
      ) {
        return false
      }
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
     * A visitor arrived through a link (at `at`: now, or when a page kept the arrival before the
     * tracking part ran): remember the code (with first-touch, unless one is held within the
     * window), and record one click per code. Not where the visitor's Global Privacy Control
     * signal is honoured: then false.
     */
    capture(code: string, at = now()): boolean {
      if (options.privacySignal) {
        info('Global Privacy Control is on: this referral visit is not recorded.')
        return false
      }
      if (!options.firstTouch || replaces(at))
        persisted.write('attribution', { code, capturedAt: at })
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

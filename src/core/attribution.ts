// The visitor and how they arrived: an anonymous visitor id, the referral code they arrived with
// (kept for the campaign's attribution window), and one click per code. Whether they closed the
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

  function get(): Attribution | null {
    const stored = persisted.read(StoredAttribution, 'attribution')
    if (!stored) return null
    // Expired, or captured more than a day in the future (no clock drifts that far): discarded.
    const age = now() - stored.capturedAt
    if (age > windowDays * DAY || age < -DAY) {
      persisted.remove('attribution')
      return null
    }
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
     * than any held here, is adopted with its visitor id, so a signup here credits the click made
     * there. False when the one held here is newer.
     */
    adopt(shared: Attribution): boolean {
      const held = persisted.read(StoredAttribution, 'attribution')
      const capturedAt = Date.parse(shared.capturedAt)
      if (held && held.capturedAt > capturedAt) return false
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
      const clicks = persisted.read(StoredClicks, 'clicks')
      const codes = clicks?.codes ?? []
      if (clicks !== undefined && !codes.includes(code))
        persisted.write('clicks', { codes: [...codes, code].slice(-REMEMBERED) })
    },
    /**
     * A visitor arrived through a link: remember the code, and record one click per code. Not
     * where the visitor's Global Privacy Control signal is honoured: then false.
     */
    capture(code: string): boolean {
      if (options.privacySignal) {
        info('Global Privacy Control is on: this visit through a referral link is not recorded.')
        return false
      }
      persisted.write('attribution', { code, capturedAt: now() })
      const clicks = persisted.read(StoredClicks, 'clicks')
      const clicked = clicks?.codes ?? []
      if (!clicked.includes(code) && !options.reloadedWithoutStorage()) {
        // Unreadable just now: the click is recorded, the stored list left as it is.
        if (clicks !== undefined)
          persisted.write('clicks', { codes: [...clicked, code].slice(-REMEMBERED) })
        options.enqueue({ type: 'click', code })
      }
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

// The tracking core: what the script tag's tracking part carries. It captures the referral code
// and cleans the address bar, keeps the visitor id, records events in the durable queue and
// delivers them (one tab's send pass at a time), and holds the visitor's consent. The campaign, the
// referrer's link and the stores the UI reads come later (extras.ts), on the same core.

import { type ApiClient, createApiClient } from '../api/client.ts'
import { createServiceClock } from '../api/clock.ts'
import { ISO_TIMESTAMP_PATTERN, type TrackedEvent } from '../api/wire.ts'
import { createQueue } from '../queue/queue.ts'
import { createSafeStorage, defaultStorage } from '../queue/storage.ts'
import { globalTimers } from '../shared/timers.ts'
import { arrive } from './arrival.ts'
import { createAttribution } from './attribution.ts'
import { startCheckout } from './checkout/start.ts'
import { withoutReferral } from './clean-url.ts'
import { CONSENT_GIVEN, hasStoredConsent } from './consent-record.ts'
import { createDebugging } from './debugging.ts'
import { createEmitter } from './emitter.ts'
import { browserHost, type Host } from './host.ts'
import { defaultRandom, randomId } from './ids.ts'
import { takeKept } from './kept.ts'
import { isOwnLink } from './own-links.ts'
import { listenToPage } from './page-events.ts'
import { createPersisted } from './persisted.ts'
import { createTrack } from './track.ts'
import type { TrackerOptions } from './tracker-options.ts'
import type { CoreEvents, Tracking } from './types.ts'

// Not marked free of side effects: it captures the referral code and records the click.
export function createTracker(options: TrackerOptions) {
  const { key } = options
  const host: Host = { ...browserHost, ...options.host }
  const now = options.now ?? (() => Date.now())
  const random = options.random ?? defaultRandom
  const timers = options.timers ?? globalTimers
  const namespace = `referral:${key.mode}:${key.hash}:`
  const backing = options.storage === null ? undefined : (options.storage ?? defaultStorage())
  let consented = options.consent !== 'required' || hasStoredConsent(backing, namespace)
  const storage = createSafeStorage(backing, {
    quiet: options.storage === undefined && typeof window === 'undefined',
    held: !consented,
  })
  const persisted = createPersisted(storage, namespace)
  const events = createEmitter<CoreEvents>(now)
  // What start-up announces (a captured click, a cached campaign and link) is replayed to
  // listeners attached in the same task: right after creation, or by the stub's queued calls.
  events.record()
  queueMicrotask(() => events.stopRecording())
  const clock = createServiceClock(now)
  const api: ApiClient = createApiClient({
    apiBase: options.apiBase,
    publicKey: key.key,
    fetch: options.fetch,
    now,
    clock,
  })
  const cleanups: Array<() => void> = []
  let destroyed = false

  const queue = createQueue({
    storage,
    namespace,
    api,
    sending: options.sending,
    locks: options.locks === null ? undefined : (options.locks ?? host.locks),
    now,
    random,
    timers,
    tabId: randomId('t', random).slice(0, 12),
    clock,
    isOnline: () => host.isOnline(),
    canSend: () => consented,
    sendBeacon: host.sendBeacon,
    maxEvents: options.maxQueuedEvents,
    maxAgeMs: options.maxEventAgeMs,
    emit: (name, payload) => events.emit(name, payload as never),
  })

  const fail = (error: Error) => events.emit('error', { error })

  /** The id of the event a kept record makes (the same in every tab): set while it is taken. */
  let keptId: string | undefined
  function enqueue(event: Omit<TrackedEvent, 'id' | 'visitorId' | 'occurredAt'>): boolean {
    // Informational only: left out where the clock gives no time the contract can carry.
    const at = new Date(clock.now())
    const occurredAt = Number.isNaN(at.getTime()) ? '' : at.toISOString()
    return queue.enqueue({
      id: keptId ?? randomId('e', random),
      visitorId: attribution.visitorId(),
      ...(ISO_TIMESTAMP_PATTERN.test(occurredAt) ? { occurredAt } : {}),
      ...event,
    })
  }

  const privacySignal = options.honorGpc && host.globalPrivacyControl
  /**
   * Consent is required and the visitor has not answered (no Global Privacy Control refusal): a
   * referral stays in the address bar and rides on the site's own links until they do.
   */
  let waiting = !consented && !privacySignal
  const attribution = createAttribution({
    persisted,
    now,
    random,
    privacySignal,
    firstTouch: options.firstTouch,
    reloadedWithoutStorage: () => host.reloaded && !storage.durable(),
    enqueue,
  })

  // cookieDomain: the referral shared with the site's other subdomains and its server.
  const cookie =
    options.cookieDomain === undefined || !options.sharedCookie
      ? null
      : options.sharedCookie(options.cookieDomain, {
          jar: host.cookie,
          href: host.href(),
          now,
          firstTouch: options.firstTouch,
        })
  /** The attribution held, into the shared cookie; never before consent or with GPC. */
  const shareAttribution = () => {
    const held = attribution.get()
    if (cookie && held && consented && !privacySignal) cookie.write(held, attribution.windowMs())
  }

  // A code of a link this browser showed its own referrer is theirs: not captured (selfreferral).
  const capture = (code: string, at?: number) => {
    if (isOwnLink(storage, namespace, code, now())) {
      events.emit('selfreferral', { code })
      return false
    }
    const captured = attribution.capture(code, at)
    if (captured) {
      shareAttribution()
      events.emit('captured', undefined)
    }
    return captured
  }

  const track = createTrack({
    capture,
    heldCode: () => attribution.get()?.code,
    enqueue,
    isDestroyed: () => destroyed,
    fail,
  })

  function forget() {
    cookie?.remove()
    attribution.reset()
    queue.discardPending()
    persisted.clear()
    events.emit('forgotten', undefined)
    events.emit('change', undefined)
  }

  /**
   * The visitor's choice where consent is required. `true` stores what waited in memory and
   * starts sending; `false` erases every key of this namespace, the choice included, and stops.
   */
  function consent(granted: boolean) {
    // Declined here: the shared cookie goes too, even if consent was given on another subdomain.
    if (granted !== true) cookie?.remove()
    // Answered: the referral waiting in the address bar leaves it (recorded, or not at all).
    const cleaned =
      waiting && options.cleanUrl && withoutReferral(host.href() ?? '', options.refParams)
    if (cleaned) host.replaceUrl(cleaned)
    if (granted === consented && !waiting) return
    waiting = false
    consented = granted === true
    if (consented) {
      storage.commit()
      if (options.consent === 'required') storage.set(`${namespace}consent`, CONSENT_GIVEN)
      shareAttribution() // a code held until consent is shared now
      events.emit('consent', true)
      queue.send((sending) => sending.kick())
    } else {
      storage.hold()
      forget()
      events.emit('consent', false)
    }
  }

  function destroy() {
    if (destroyed) return
    destroyed = true
    queue.destroy()
    for (const cleanup of cleanups.splice(0)) cleanup()
    events.emit('destroyed', undefined)
    events.clear()
  }

  // --- start --------------------------------------------------------------------------------

  const arrival = {
    attribution,
    capture,
    shareAttribution,
    privacySignal,
    refParams: options.refParams,
    readHandoff: options.handoffArrival,
  }
  /** This page's arrival (its address bar cleaned), at the time the loader kept it if it did. */
  const arriveHere = (at?: number) =>
    arrive({
      ...arrival,
      href: host.href(),
      now: at === undefined ? now : () => at,
      replaceUrl: options.cleanUrl && !waiting ? (url) => host.replaceUrl(url) : undefined,
    })
  /**
   * The referral the site's other subdomains share (the attribution cookie), adopted before what
   * happened after its capture, as the whole widget would have at the start of that page.
   */
  let shared = cookie && !privacySignal ? cookie.read() : null
  const adoptShared = (before: number) => {
    if (shared && Date.parse(shared.capturedAt) <= before) {
      attribution.adopt(shared, true)
      shared = null
    }
  }
  // What the loader kept before this part ran, on this page or one that closed too soon, in the
  // order it happened: arrivals as they were, and track calls, each recorded as if the whole
  // widget had been there then (a sign-up kept on a subdomain carries the shared referral).
  let arrived = false
  for (const record of takeKept(storage, namespace)) {
    keptId = record.id
    adoptShared(record.at)
    if (record.type !== 'arrive') track(record.type, record.properties)
    else if (record.page !== host.page)
      arrive({
        ...arrival,
        href: record.href,
        now: () => record.at,
        replaceUrl: undefined,
      })
    else {
      arrived = true
      arriveHere(record.at)
    }
  }
  keptId = undefined
  adoptShared(Number.POSITIVE_INFINITY)
  if (!arrived) arriveHere()
  // Given where the page hands off to other domains, or may carry a referral until consent.
  const outbound = options.outboundLinks?.({
    ...{ hosts: options.outbound ?? [], now, host, timers },
    held: () => (!privacySignal && (consented || waiting) ? attribution.get() : null),
    carried: () => waiting,
  })
  if (outbound) cleanups.push(outbound.stop)
  // Checkout links carry a referral only once it may be recorded.
  const checkout = startCheckout({
    ...{ events, host, timers, api, campaignId: options.campaignId },
    links: options.checkout ? options.checkoutLinks : undefined,
    held: () => (!privacySignal && consented ? attribution.get() : null),
  })
  cleanups.push(checkout.stop)
  cleanups.push(...listenToPage({ host, namespace, queue, events }))
  queue.send((sending) => sending.kick())

  /** What the later part (campaign, link, stores) builds on, and what the debug file reads. */
  const core = {
    ...{ key, api, persisted, attribution, events, host, now, timers, options, namespace },
    ...{ storage, privacySignal },
    queueSize: () => queue.size(),
    connection: () => queue.connection(),
    consented: () => consented,
    isDestroyed: () => destroyed,
    /** The campaign's window is known: the shared cookie lives as long. */
    shareAttribution,
    fail,
    onDestroy: (cleanup: () => void) => cleanups.push(cleanup),
  }
  const { debug, diagnose } = createDebugging(core, options.debugging)
  const tracking: Tracking = {
    track,
    getAttribution: attribution.get,
    checkoutReference: checkout.reference,
    decorate: (url) => (outbound ? outbound.decorate(url) : url),
    on: events.on,
    flush: queue.flush,
    forget,
    consent,
    queueSize: core.queueSize,
    destroy,
    debug,
    diagnose,
  }
  if (options.debug) debug(true)
  return { ...tracking, core }
}

export type Tracker = ReturnType<typeof createTracker>
export type Core = Tracker['core']

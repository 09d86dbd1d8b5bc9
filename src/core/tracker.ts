// The tracking core: what the script tag's tracking file carries. It captures the referral code
// and cleans the address bar, keeps the visitor id, records events in the durable queue and
// delivers them, talks to the other tabs, and holds the visitor's consent. The campaign, the
// referrer's link and the stores the UI reads come later (extras.ts), on the same core.
import { type ApiClient, createApiClient } from '../api/client.ts'
import { createServiceClock } from '../api/clock.ts'
import { HANDOFF_PARAM, handoffArrival } from '../api/handoff.ts'
import { CODE_PATTERN, ISO_TIMESTAMP_PATTERN, type TrackedEvent } from '../api/wire.ts'
import { createQueue } from '../queue/queue.ts'
import { createSender } from '../queue/sender.ts'
import { createSafeStorage, defaultStorage } from '../queue/storage.ts'
import { ConfigError, errorOf } from '../shared/errors.ts'
import { error as logError } from '../shared/log.ts'
import { own } from '../shared/own.ts'
import { globalTimers } from '../shared/timers.ts'
import { createAttribution } from './attribution.ts'
import type { attributionCookie } from './attribution-cookie.ts'
import { createEmitter } from './emitter.ts'
import { browserHost, type Host } from './host.ts'
import { defaultRandom, randomId } from './ids.ts'
import type { PublicKey } from './keys.ts'
import { checkOption } from './options.ts'
import type { outboundLinks } from './outbound.ts'
import { createPersisted, hasStoredConsent } from './persisted.ts'
import { readReferralCode, withoutParams } from './referral-url.ts'
import { createTabs } from './tabs.ts'
import type { ReferralEvents, ReferralOptions, Tracking, TrackProperties } from './types.ts'

/** The options tracking needs, checked: the key parsed, the defaults applied. */
export interface TrackerOptions
  extends Pick<
    ReferralOptions,
    | 'consent'
    | 'maxQueuedEvents'
    | 'maxEventAgeMs'
    | 'fetch'
    | 'storage'
    | 'now'
    | 'random'
    | 'timers'
    | 'locks'
    | 'host'
  > {
  key: PublicKey
  apiBase: string
  refParams: string[]
  cleanUrl: boolean
  honorGpc: boolean
  /** The first referral within the window keeps the visitor (`attribution: 'first'`). */
  firstTouch: boolean
  /** Also share the captured referral in a first-party cookie on this domain. */
  cookieDomain?: string | undefined
  /**
   * The cookie module for `cookieDomain`, passed in rather than imported: the script tag's
   * tracking file loads it beside itself only on pages that set `cookieDomain`.
   */
  sharedCookie?: typeof attributionCookie | undefined
  /** Hand the attribution off to links to these hosts (lower case, `*.` for subdomains). */
  outbound?: readonly string[] | undefined
  /** The module that does it, passed in like `sharedCookie` (loaded where `outbound` is set). */
  outboundLinks?: typeof outboundLinks | undefined
}

/** The core's own announcements, beside the public ones. */
export interface CoreEvents extends ReferralEvents {
  /** The queue changed: its size or its connection. */
  change: undefined
  /** The visitor gave (true) or withdrew (false) consent. */
  consent: boolean
  /** A code was captured from the address bar or `track('click')`. */
  captured: undefined
  /** Everything stored was erased. */
  forgotten: undefined
  /** The page was shown again from the back/forward cache. */
  restored: undefined
}

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
  const events = createEmitter<CoreEvents>()
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
  const sender = createSender({
    name: namespace,
    locks: options.locks === null ? undefined : (options.locks ?? host.locks),
  })
  const cleanups: Array<() => void> = []
  let destroyed = false

  const queue = createQueue({
    storage,
    namespace,
    api,
    sender,
    now,
    random,
    timers,
    tabId: randomId('t', random).slice(0, 12),
    clock,
    isOnline: () => host.isOnline(),
    canSend: () => consented,
    sendBeacon: host.sendBeacon,
    ...(options.maxQueuedEvents === undefined ? {} : { maxEvents: options.maxQueuedEvents }),
    ...(options.maxEventAgeMs === undefined ? {} : { maxAgeMs: options.maxEventAgeMs }),
    emit: (name, payload) => {
      events.emit(name, payload as never)
      if (name === 'event:queued') tabs.queued()
    },
  })

  const tabs = createTabs({
    namespace,
    timers,
    random,
    isSender: () => sender.isSender(),
    onQueued: () => queue.wake(),
    onFlush: () => queue.flush(),
  })
  cleanups.push(() => tabs.close())

  const fail = (error: Error) => events.emit('error', { error })

  function enqueue(event: Omit<TrackedEvent, 'id' | 'visitorId' | 'occurredAt'>): boolean {
    // Informational only: left out where the clock gives no time the contract can carry.
    const at = new Date(clock.now())
    const occurredAt = Number.isNaN(at.getTime()) ? '' : at.toISOString()
    return queue.enqueue({
      id: randomId('e', random),
      visitorId: attribution.visitorId(),
      ...(ISO_TIMESTAMP_PATTERN.test(occurredAt) ? { occurredAt } : {}),
      ...event,
    })
  }

  const privacySignal = options.honorGpc && host.globalPrivacyControl
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
      : options.sharedCookie(options.cookieDomain, { jar: host.cookie, href: host.href(), now })
  /** The attribution held, into the shared cookie; never before consent or with GPC. */
  const shareAttribution = () => {
    const held = attribution.get()
    if (cookie && held && consented && !privacySignal) cookie.write(held, attribution.windowMs())
  }

  const capture = (code: string) => {
    const captured = attribution.capture(code)
    if (captured) {
      shareAttribution()
      events.emit('captured', undefined)
    }
    return captured
  }

  function track(type: 'signup' | 'click', given?: TrackProperties): boolean {
    try {
      if (destroyed) throw new ConfigError('track', 'This widget was destroyed.')
      // The page's own fields only: a `code` on its Object.prototype is not this signup's.
      const properties = own(given ?? {})
      if (type === 'click') {
        if (typeof properties.code !== 'string' || !CODE_PATTERN.test(properties.code)) {
          throw new ConfigError(
            'code',
            `track('click') needs a referral code of 8-12 letters or digits.`,
          )
        }
        return capture(properties.code)
      }
      if (type === 'signup') {
        const user = checkOption('userId', properties.userId)
        const code = properties.code ?? attribution.get()?.code
        if (code !== undefined && !CODE_PATTERN.test(code)) {
          throw new ConfigError('code', 'code must be 8-12 letters or digits.')
        }
        return enqueue({
          type: 'signup',
          userId: user,
          ...(code === undefined ? {} : { code }),
        })
      }
      throw new ConfigError(
        'type',
        `track() takes 'signup' or 'click', not ${JSON.stringify(type)}.`,
      )
    } catch (thrown) {
      const failure = errorOf(thrown)
      logError(failure.message)
      fail(failure)
      return false
    }
  }

  async function flush(): Promise<void> {
    await queue.flush()
    // Not the sending tab: ask it to try, and settle when it answers or after a few seconds.
    if (!sender.isSender()) await tabs.requestFlush()
  }

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
    if (granted === consented) return
    consented = granted === true
    if (consented) {
      storage.commit()
      if (options.consent === 'required') persisted.write('consent', { granted: true })
      shareAttribution() // a code held until consent is shared now
      events.emit('consent', true)
      queue.kick()
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
    sender.release()
    for (const cleanup of cleanups.splice(0)) cleanup()
    events.emit('destroyed', undefined)
    events.clear()
  }

  // --- start --------------------------------------------------------------------------------

  const shared = cookie && !privacySignal ? cookie.read() : null
  if (shared) attribution.adopt(shared)
  const href = host.href()
  if (href !== undefined) {
    let code = readReferralCode(href, options.refParams)
    // Handed off from another domain of the site: a fresh hand-off is adopted, visitor id and
    // capture time as they were, its click already recorded there; any other is a plain arrival.
    const handoff = handoffArrival(href, now())
    if (handoff?.visitorId !== undefined && !privacySignal) {
      if (attribution.adopt(handoff)) attribution.clicked(handoff.code)
      shareAttribution()
      if (code === handoff.code) code = null
    } else code ??= handoff?.code ?? null
    if (code) capture(code)
    const params = options.refParams.concat(HANDOFF_PARAM)
    const cleaned = options.cleanUrl ? withoutParams(href, params) : null
    if (cleaned) host.replaceUrl(cleaned)
  }
  const outbound =
    options.outbound?.length && options.outboundLinks
      ? options.outboundLinks({
          hosts: options.outbound,
          held: () => (consented && !privacySignal ? attribution.get() : null),
          now,
          host,
          timers,
        })
      : undefined
  if (outbound) cleanups.push(outbound.stop)

  cleanups.push(
    host.listen('online', () => {
      events.emit('change', undefined)
      queue.online()
    }),
    host.listen('offline', () => events.emit('change', undefined)),
    // Left (perhaps into the back/forward cache): what waits goes by beacon, and the page gives
    // up the lock and the channel, which the site's next page would otherwise contend for.
    host.listen('pagehide', () => {
      queue.beacon()
      sender.pause()
      tabs.suspend()
    }),
    // Shown again from the cache: the page carries on where it was, on the real clock.
    host.listen('pageshow', (event) => {
      if (!(event as PageTransitionEvent).persisted) return
      tabs.resume()
      sender.resume()
      queue.kick()
      events.emit('restored', undefined)
      events.emit('change', undefined)
    }),
    host.listen('storage', (event) => {
      const changed = (event as StorageEvent).key
      if (changed !== null && !changed.startsWith(namespace)) return
      events.emit('change', undefined)
      if (changed?.startsWith(`${namespace}q:`) && sender.isSender()) queue.wake()
    }),
  )
  sender.onAcquire(() => queue.kick())
  queue.kick()

  const tracking: Tracking = {
    track,
    getAttribution: attribution.get,
    decorate: (url) => (outbound ? outbound.decorate(url) : url),
    on: events.on,
    flush,
    forget,
    consent,
    queueSize: () => queue.size(),
    destroy,
  }

  return {
    ...tracking,
    /** What the later part (campaign, link, stores) builds on. */
    core: {
      key,
      api,
      persisted,
      attribution,
      events,
      host,
      now,
      timers,
      connection: () => queue.connection(),
      consented: () => consented,
      isDestroyed: () => destroyed,
      /** The campaign's window is known: the shared cookie lives as long. */
      shareAttribution,
      fail,
      onDestroy: (cleanup: () => void) => cleanups.push(cleanup),
    },
  }
}

export type Tracker = ReturnType<typeof createTracker>
export type Core = Tracker['core']

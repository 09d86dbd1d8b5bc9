// createReferral: the headless core behind the script tag and the components.
import { type ApiClient, createApiClient, type FetchLike } from '../api/client.ts'
import { createServiceClock } from '../api/clock.ts'
import { ApiError, ConfigError } from '../api/errors.ts'
import { array, literal, number, object, type Parser, parse, string } from '../api/parse.ts'
import {
  attributionWindowDays,
  CLIENT_ID_PATTERN,
  CODE_PATTERN,
  ISO_TIMESTAMP_PATTERN,
  type Link,
  type PublicCampaign,
  parseLink,
  parsePublicCampaign,
  type TrackedEvent,
} from '../api/wire.ts'
import { createQueue, type QueueEvents } from '../queue/queue.ts'
import { createSender, type LockManagerLike } from '../queue/sender.ts'
import { createSafeStorage, defaultStorage, jsonOf, type StorageLike } from '../queue/storage.ts'
import { globalTimers, type Timers } from '../queue/timers.ts'
import { type Attribution, createStores, type ReferralLink } from '../stores/index.ts'
import { readReferralCode, withoutParams } from './attribution.ts'
import { attributionCookie } from './attribution-cookie.ts'
import { createEmitter } from './emitter.ts'
import { browserHost, type Host } from './host.ts'
import { defaultRandom, randomId } from './ids.ts'
import { parsePublicKey, shortHash } from './keys.ts'
import { info, error as logError } from './log.ts'
import { checkOption, resolveApiBase } from './options.ts'

export type Theme = 'light' | 'dark' | 'auto'

export interface ReferralOptions {
  /** pk_test_... or pk_live_...; a secret key is refused. */
  publicKey: string
  /** Base URL of the referral service: absolute, or a path on this site such as `/referral`. */
  apiBase: string
  /** A camp_... id; default: the newest active campaign. */
  campaignId?: string | undefined
  /** The signed-in user who refers others. */
  userId?: string | undefined
  /** URL parameter(s) carrying the referral code; default `ref`. */
  refParam?: string | readonly string[] | undefined
  /** The page share links point to; default: this origin's `/`. */
  landingUrl?: string | undefined
  locale?: string | undefined
  theme?: Theme | undefined
  /** Remove the captured parameter from the address bar (default true). */
  cleanUrl?: boolean | undefined
  /**
   * `on-demand`: the campaign (and the user's link) are fetched only when something needs them
   * (`getLink()`, a mounted panel or banner, `needCampaign()`), so a page that only tracks makes
   * no campaign request. Default `eager`.
   */
  campaign?: 'eager' | 'on-demand' | undefined
  /**
   * `required`: nothing is stored and no link or event is sent until `consent(true)`; a code seen
   * in the address bar meanwhile waits in memory. Default: store and send as first-party code.
   */
  consent?: 'required' | undefined
  /**
   * Honour the visitor's Global Privacy Control signal: where `navigator.globalPrivacyControl`
   * is true, a visitor arriving through a link is not recorded (no click, no stored code, no
   * banner). Default false.
   */
  honorGpc?: boolean | undefined
  /**
   * Also keep the captured referral in the first-party cookie `referral_attribution` on this
   * domain (the page's host or a parent of it, e.g. `shop.example`), so the site's other
   * subdomains and its server credit it. Default: no cookie.
   */
  cookieDomain?: string | undefined
  /** Bounds of the event queue. */
  maxQueuedEvents?: number | undefined
  maxEventAgeMs?: number | undefined
  // Injectable for tests and unusual hosts. Defaults look the globals up at call time.
  fetch?: FetchLike | undefined
  storage?: StorageLike | null | undefined
  now?: (() => number) | undefined
  random?: (() => number) | undefined
  timers?: Timers | undefined
  locks?: LockManagerLike | null | undefined
  host?: Partial<Host> | undefined
}

export interface ReferralEvents extends Omit<QueueEvents, 'change'> {
  ready: { campaign: PublicCampaign | null }
  link: ReferralLink
  error: { error: Error }
  /** destroy() was called: the UI unmounts. */
  destroyed: undefined
}

export type TrackProperties = { userId?: string; code?: string }

const DAY = 24 * 60 * 60 * 1000
const DEFAULT_ATTRIBUTION_DAYS = 30
const FLUSH_REQUEST_TIMEOUT_MS = 3000
const REMEMBERED_CLICKS = 50

// What the widget keeps in storage, each with a version: anything else found there is discarded.
const v = literal(1)
const code = string(CODE_PATTERN)
const StoredVisitor = object({ v, id: string(CLIENT_ID_PATTERN) })
const StoredAttribution = object({ v, code, capturedAt: number })
const StoredClicks = object({ v, codes: array(code) })
const StoredCampaign = object({ v, campaign: parsePublicCampaign })
const StoredLink = object({ v, link: parseLink })
const StoredBanner = object({ v, dismissed: array(code) })
const StoredConsent = object({ v, granted: literal(true) })

// Not marked free of side effects: a bare `createReferral(…)` captures the referral code in the
// address bar and records the click, so an app's bundler must keep it.
export function createReferral(options: ReferralOptions) {
  // --- options: every problem is a ConfigError before anything is stored or sent ----------
  const key = parsePublicKey(options?.publicKey)
  if (typeof options.apiBase !== 'string' || options.apiBase === '') {
    throw new ConfigError('apiBase', 'apiBase is required: the base URL of the referral service.')
  }
  const host: Host = { ...browserHost, ...options.host }
  const apiBase = resolveApiBase(checkOption('apiBase', options.apiBase), host.href())
  for (const name of ['campaignId', 'userId', 'landingUrl', 'theme', 'consent', 'locale'] as const)
    if (options[name] !== undefined) checkOption(name, options[name])
  const refParams =
    options.refParam === undefined ? ['ref'] : checkOption('refParam', options.refParam)
  const cleanUrl = options.cleanUrl === undefined || checkOption('cleanUrl', options.cleanUrl)
  const honorGpc = options.honorGpc !== undefined && checkOption('honorGpc', options.honorGpc)
  const now = options.now ?? (() => Date.now())
  // cookieDomain: the referral shared with the site's other subdomains (attribution-cookie.ts).
  const cookie =
    options.cookieDomain === undefined
      ? null
      : attributionCookie(checkOption('cookieDomain', options.cookieDomain), {
          jar: host.cookie,
          href: host.href(),
          now,
        })

  const random = options.random ?? defaultRandom
  const timers = options.timers ?? globalTimers
  const namespace = `referral:${key.mode}:${key.hash}:`
  const backing = options.storage === null ? undefined : (options.storage ?? defaultStorage())
  // Where consent is required, a choice made on an earlier visit is the only thing read first.
  let consented = options.consent !== 'required' || hasStoredConsent(backing, namespace)
  const storage = createSafeStorage(backing, {
    quiet: options.storage === undefined && typeof window === 'undefined',
    held: !consented,
  })
  const tabId = randomId('t', random).slice(0, 12)
  const events = createEmitter<ReferralEvents>()
  // What start-up announces (a captured click, a cached campaign and link) is replayed to
  // listeners attached in the same task: right after creation, or by the stub's queued calls.
  events.record()
  queueMicrotask(() => events.stopRecording())
  const stores = createStores()
  const clock = createServiceClock(now)
  const api: ApiClient = createApiClient({
    apiBase,
    publicKey: key.key,
    fetch: options.fetch,
    now,
    clock,
  })
  const sender = createSender({
    name: namespace,
    tabId,
    storage,
    locks: options.locks === null ? undefined : (options.locks ?? host.locks),
    now,
    timers,
  })
  const cleanups: Array<() => void> = []
  let destroyed = false
  let userId = options.userId

  const queue = createQueue({
    storage,
    namespace,
    api,
    sender,
    now,
    random,
    timers,
    tabId,
    clock,
    isOnline: () => host.isOnline(),
    canSend: () => consented,
    sendBeacon: host.sendBeacon,
    ...(options.maxQueuedEvents === undefined ? {} : { maxEvents: options.maxQueuedEvents }),
    ...(options.maxEventAgeMs === undefined ? {} : { maxAgeMs: options.maxEventAgeMs }),
    emit: (name, payload) => {
      if (name === 'change') refreshQueueState()
      else (events.emit as (name: string, payload: unknown) => void)(name, payload)
    },
  })

  function refreshQueueState() {
    stores.$queueSize.set(queue.size())
    const connection = queue.connection()
    const current = stores.$connection.get()
    if (JSON.stringify(current) !== JSON.stringify(connection)) stores.$connection.set(connection)
  }

  // The last text read per key and what it parsed to: storage is read every time (another tab
  // may have written), but the same text is not parsed twice.
  const lastRead = new Map<string, { raw: string; parsed: unknown }>()
  const read = <T>(parser: Parser<T>, name: string): T | null => {
    const storageKey = namespace + name
    const raw = storage.get(storageKey)
    const last = lastRead.get(storageKey)
    if (raw !== null && last?.raw === raw) return last.parsed as T
    const parsed = parse(parser, jsonOf(raw))
    if (raw !== null && parsed === null) storage.remove(storageKey) // broken or foreign: discarded
    if (raw !== null && parsed !== null) lastRead.set(storageKey, { raw, parsed })
    return parsed
  }
  const write = (name: string, value: object) =>
    storage.set(namespace + name, JSON.stringify({ v: 1, ...value }))

  const fail = (error: Error) => {
    events.emit('error', { error })
  }

  // --- visitor and attribution -------------------------------------------------------------

  /** Read once per page: a burst of `track` calls parses nothing per call. */
  let visitor: string | undefined
  function visitorId(): string {
    visitor ??= read(StoredVisitor, 'visitor')?.id
    if (visitor === undefined) {
      visitor = randomId('v', random)
      write('visitor', { id: visitor })
    }
    return visitor
  }

  function attributionWindowMs(): number {
    const state = stores.$campaign.get()
    const days =
      state.status === 'ready'
        ? attributionWindowDays(state.campaign.attributionWindow)
        : Number.NaN
    return (Number.isFinite(days) ? days : DEFAULT_ATTRIBUTION_DAYS) * DAY
  }

  function getAttribution(): Attribution | null {
    const stored = read(StoredAttribution, 'attribution')
    if (!stored) return null
    // Expired, or captured more than a day in the future (no clock drifts that far): discarded.
    const age = now() - stored.capturedAt
    if (age > attributionWindowMs() || age < -DAY) {
      storage.remove(`${namespace}attribution`)
      stores.$attribution.set(null)
      return null
    }
    return {
      code: stored.code,
      visitorId: visitorId(),
      capturedAt: new Date(stored.capturedAt).toISOString(),
    }
  }

  function enqueue(event: Omit<TrackedEvent, 'id' | 'visitorId' | 'occurredAt'>): boolean {
    // Informational only: left out where the clock gives no time the contract can carry.
    const at = new Date(clock.now())
    const occurredAt = Number.isNaN(at.getTime()) ? '' : at.toISOString()
    return queue.enqueue({
      id: randomId('e', random),
      visitorId: visitorId(),
      ...(ISO_TIMESTAMP_PATTERN.test(occurredAt) ? { occurredAt } : {}),
      ...event,
    })
  }

  const privacySignal = honorGpc && host.globalPrivacyControl

  /** cookieDomain: the attribution held, into the shared cookie; never before consent or with GPC. */
  function saveCookie() {
    const attribution = getAttribution()
    if (cookie && attribution && consented && !privacySignal)
      cookie.write(attribution, attributionWindowMs())
  }

  /**
   * A visitor arrived through a link: remember the code, and record one click per code. Not
   * where the visitor's Global Privacy Control signal is honoured: then false.
   */
  function capture(code: string): boolean {
    if (privacySignal) {
      info('Global Privacy Control is on: this visit through a referral link is not recorded.')
      return false
    }
    write('attribution', { code, capturedAt: now() })
    saveCookie() // cookieDomain: the new capture goes to the shared cookie too
    const clicked = read(StoredClicks, 'clicks')?.codes ?? []
    if (!clicked.includes(code)) {
      write('clicks', { codes: [...clicked, code].slice(-REMEMBERED_CLICKS) })
      enqueue({ type: 'click', code })
    }
    stores.$attribution.set(getAttribution())
    stores.$bannerDismissed.set(bannerDismissed())
    return true
  }

  // --- campaign and link ----------------------------------------------------------------------

  const campaignCacheName = `campaign:${options.campaignId ?? 'newest'}`

  async function loadCampaign() {
    const cached = read(StoredCampaign, campaignCacheName)
    // Render from cache at once; revalidate behind it.
    if (cached && stores.$campaign.get().status !== 'ready') setCampaign(cached.campaign)
    try {
      const campaign =
        options.campaignId === undefined
          ? await api.newestActiveCampaign()
          : await api.campaign(options.campaignId)
      if (destroyed) return
      if (campaign && campaign.status === 'active') {
        write(campaignCacheName, { campaign })
        setCampaign(campaign)
      } else {
        storage.remove(namespace + campaignCacheName)
        setCampaign(null)
      }
    } catch (error) {
      if (destroyed || !(error instanceof ApiError)) return
      // Only the service's own 404 says there is no such campaign.
      if (error.status === 404 && !error.retryable) {
        storage.remove(namespace + campaignCacheName)
        setCampaign(null)
      } else if (!cached) {
        stores.$campaign.set({ status: 'error', error })
        fail(error)
      }
    }
  }

  function setCampaign(campaign: PublicCampaign | null) {
    const before = stores.$campaign.get()
    const wasSettled = before.status === 'ready' || before.status === 'empty'
    if (campaign) {
      if (
        before.status !== 'ready' ||
        JSON.stringify(before.campaign) !== JSON.stringify(campaign)
      ) {
        stores.$campaign.set({ status: 'ready', campaign })
      }
    } else if (before.status !== 'empty') {
      stores.$campaign.set({ status: 'empty' })
    }
    if (!wasSettled) events.emit('ready', { campaign })
    stores.$attribution.set(getAttribution())
    saveCookie() // cookieDomain: the cookie lives as long as the campaign's window, now known
    void loadLink()
  }

  function landingUrl(): URL | null {
    if (options.landingUrl !== undefined) return new URL(options.landingUrl)
    const href = host.href()
    if (href === undefined) return null
    const page = new URL(href)
    return page.protocol === 'http:' || page.protocol === 'https:'
      ? new URL(`${page.origin}/`)
      : null
  }

  function shareLink(code: string): ReferralLink {
    const url = landingUrl()
    if (!url) {
      throw new ConfigError(
        'landingUrl',
        'landingUrl is required where there is no page to link to.',
      )
    }
    url.searchParams.set(refParams[0] ?? 'ref', code)
    return { code, url: url.toString() }
  }

  let linkRequest: Promise<void> | null = null
  function loadLink(): Promise<void> {
    const campaignState = stores.$campaign.get()
    const user = userId
    if (!consented) return Promise.resolve() // the user id is not sent before consent
    if (user === undefined || campaignState.status !== 'ready') {
      if (user === undefined) stores.$link.set({ status: 'idle' })
      return Promise.resolve()
    }
    const campaignId = campaignState.campaign.id
    const cacheName = `link:${campaignId}:${shortHash(user)}`
    const current = stores.$link.get()
    const cached = read(StoredLink, cacheName)
    const setLink = (link: Link) => {
      const value = shareLink(link.code)
      const before = stores.$link.get()
      if (before.status !== 'ready' || before.link.url !== value.url) {
        stores.$link.set({ status: 'ready', link: value })
        events.emit('link', value)
      }
    }
    try {
      if (cached && cached.link.campaignId === campaignId && cached.link.referrerId === user) {
        // A link never changes for its campaign and referrer: the cache needs no revalidation.
        setLink(cached.link)
        return Promise.resolve()
      }
      if (current.status !== 'ready') stores.$link.set({ status: 'loading' })
    } catch (error) {
      stores.$link.set({ status: 'error', error: error as Error })
      fail(error as Error)
      return Promise.resolve()
    }
    const request = (async () => {
      try {
        const link = await api.createLink(campaignId, user)
        if (destroyed || userId !== user) return
        write(cacheName, { link })
        setLink(link)
      } catch (error) {
        if (destroyed || userId !== user) return
        const failure = error instanceof Error ? error : new Error(String(error))
        stores.$link.set({ status: 'error', error: failure })
        fail(failure)
      }
    })()
    linkRequest = request
    return request
  }

  // --- public methods ---------------------------------------------------------------------

  function identify(id: string | null | undefined) {
    if (id === null || id === undefined) {
      userId = undefined
      stores.$link.set({ status: 'idle' })
      return
    }
    checkOption('userId', id)
    if (id === userId && stores.$link.get().status !== 'idle') return
    userId = id
    stores.$link.set({ status: 'loading' })
    void loadLink()
  }

  /** Records an event. Never throws: bad input is reported on the console and as `error`. */
  function track(type: 'signup' | 'click', properties: TrackProperties = {}): boolean {
    try {
      if (destroyed) throw new ConfigError('track', 'This widget was destroyed.')
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
        const code = properties.code ?? getAttribution()?.code
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
    } catch (error) {
      const failure = error instanceof Error ? error : new Error(String(error))
      logError(failure.message)
      fail(failure)
      return false
    }
  }

  let campaignWanted = false
  /** Starts fetching the campaign (once) where it is fetched on demand. */
  function needCampaign() {
    if (campaignWanted || destroyed) return
    campaignWanted = true
    void loadCampaign()
  }

  async function getLink(): Promise<ReferralLink> {
    needCampaign()
    if (userId === undefined) {
      throw new ConfigError(
        'userId',
        'getLink() needs a signed-in user: call identify(userId) first.',
      )
    }
    for (;;) {
      const state = stores.$link.get()
      if (state.status === 'ready') return state.link
      if (state.status === 'error') throw state.error
      const campaign = stores.$campaign.get()
      if (campaign.status === 'empty')
        throw new ConfigError('campaignId', 'There is no active campaign to link to.')
      if (campaign.status === 'error') throw campaign.error
      await new Promise<void>((resolve) => {
        const stop = [stores.$link.listen(() => done()), stores.$campaign.listen(() => done())]
        function done() {
          for (const unsubscribe of stop) unsubscribe()
          resolve()
        }
      })
      await linkRequest
    }
  }

  // --- other tabs ---------------------------------------------------------------------------

  const channel =
    typeof BroadcastChannel === 'undefined'
      ? undefined
      : new BroadcastChannel(`${namespace}channel`)
  const pendingFlushes = new Map<string, () => void>()
  if (channel) {
    // Node's BroadcastChannel would otherwise keep a server-side process alive.
    ;(channel as { unref?: () => void }).unref?.()
    channel.onmessage = (message: MessageEvent) => {
      const data: unknown = message.data
      if (typeof data !== 'object' || data === null || !('type' in data)) return
      if (data.type === 'queued' && sender.isSender()) queue.wake()
      if (data.type === 'flush' && 'id' in data && sender.isSender()) {
        void queue.flush().then(() => channel.postMessage({ type: 'flushed', id: data.id }))
      }
      if (data.type === 'flushed' && 'id' in data && typeof data.id === 'string')
        pendingFlushes.get(data.id)?.()
    }
    cleanups.push(() => channel.close())
  }

  async function flush(): Promise<void> {
    await queue.flush()
    if (sender.isSender() || !channel) return
    // Not the sending tab: ask it to try, and settle when it answers or after a few seconds.
    const id = randomId('f', random)
    await new Promise<void>((resolve) => {
      const timer = timers.setTimeout(finish, FLUSH_REQUEST_TIMEOUT_MS)
      function finish() {
        timers.clearTimeout(timer)
        pendingFlushes.delete(id)
        resolve()
      }
      pendingFlushes.set(id, finish)
      channel.postMessage({ type: 'flush', id })
    })
  }

  function bannerDismissed(): boolean {
    const code = getAttribution()?.code
    return code !== undefined && (read(StoredBanner, 'banner')?.dismissed ?? []).includes(code)
  }

  /** The referred visitor closed the banner: remembered for the code they arrived with. */
  function dismissBanner() {
    const code = getAttribution()?.code
    if (code === undefined) return
    const dismissed = read(StoredBanner, 'banner')?.dismissed ?? []
    if (!dismissed.includes(code))
      write('banner', { dismissed: [...dismissed, code].slice(-REMEMBERED_CLICKS) })
    stores.$bannerDismissed.set(true)
  }

  /**
   * The visitor's choice where consent is required. `true` stores what waited in memory and
   * starts sending; `false` erases every key of this namespace, the choice included, and stops.
   */
  function consent(granted: boolean) {
    if (granted !== true) cookie?.remove() // cookieDomain: declined, even if given on another subdomain
    if (granted === consented) return
    consented = granted === true
    if (consented) {
      storage.commit()
      if (options.consent === 'required') write('consent', { granted: true })
      saveCookie() // cookieDomain: a code held until consent is shared now
      stores.$link.set(userId === undefined ? { status: 'idle' } : { status: 'loading' })
      void loadLink()
      queue.kick()
    } else {
      storage.hold()
      forget()
    }
  }

  function forget() {
    cookie?.remove() // cookieDomain: the shared cookie goes too (consent(false) comes here)
    visitor = undefined
    queue.discardPending()
    for (const storageKey of storage.keys(namespace)) storage.remove(storageKey)
    stores.$attribution.set(null)
    stores.$bannerDismissed.set(false)
    refreshQueueState()
  }

  function destroy() {
    if (destroyed) return
    destroyed = true
    queue.destroy()
    sender.release()
    for (const cleanup of cleanups.splice(0)) cleanup()
    for (const finish of pendingFlushes.values()) finish()
    events.emit('destroyed', undefined)
    events.clear()
  }

  // --- start --------------------------------------------------------------------------------

  // cookieDomain: a referral captured on another subdomain, newer than any held here, is
  // adopted with its visitor id, so a signup here credits the click made there.
  const shared = cookie && !privacySignal ? cookie.read() : null
  const held = read(StoredAttribution, 'attribution')
  if (shared && (!held || Date.parse(shared.capturedAt) >= held.capturedAt)) {
    visitor = shared.visitorId
    write('visitor', { id: visitor })
    write('attribution', { code: shared.code, capturedAt: Date.parse(shared.capturedAt) })
  }

  const href = host.href()
  if (href !== undefined) {
    const code = readReferralCode(href, refParams)
    if (code) capture(code)
    const cleaned = cleanUrl ? withoutParams(href, refParams) : null
    if (cleaned) host.replaceUrl(cleaned)
  }
  stores.$attribution.set(getAttribution())
  stores.$bannerDismissed.set(bannerDismissed())
  refreshQueueState()
  if (userId !== undefined) stores.$link.set({ status: 'loading' })

  cleanups.push(
    host.listen('online', () => {
      refreshQueueState()
      queue.online()
      if (campaignWanted && stores.$campaign.get().status === 'error') void loadCampaign()
    }),
    host.listen('offline', refreshQueueState),
    host.listen('pagehide', () => queue.beacon()),
    host.listen('storage', (event) => {
      const changed = (event as StorageEvent).key
      if (changed !== null && !changed.startsWith(namespace)) return
      refreshQueueState()
      if (changed?.startsWith(`${namespace}q:`) && sender.isSender()) queue.wake()
    }),
  )
  sender.onAcquire(() => queue.kick())
  // Other tabs hear of new events once per burst, not once per event.
  let telling = false
  events.on('event:queued', () => {
    if (telling) return
    telling = true
    queueMicrotask(() => {
      telling = false
      if (!destroyed && !sender.isSender()) channel?.postMessage({ type: 'queued' })
    })
  })
  if (options.campaign !== 'on-demand') needCampaign()
  queue.kick()

  return {
    identify,
    needCampaign,
    track,
    getLink,
    getAttribution,
    on: events.on,
    flush,
    forget,
    consent,
    dismissBanner,
    queueSize: () => queue.size(),
    destroy,
    ...stores,
    /** The options as parsed, for the UI. */
    config: {
      mode: key.mode,
      locale: options.locale ?? host.language ?? 'en',
      theme: options.theme ?? 'auto',
    },
  }
}

export type Referral = ReturnType<typeof createReferral>

function hasStoredConsent(storage: StorageLike | undefined, namespace: string): boolean {
  try {
    const raw = storage?.getItem(`${namespace}consent`)
    return raw != null && parse(StoredConsent, JSON.parse(raw)) !== null
  } catch {
    return false
  }
}

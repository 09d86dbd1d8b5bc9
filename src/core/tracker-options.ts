// What the tracking core is given: the options, checked, and the parts the script tag loads beside
// it only on pages that need them (the shared cookie, the outbound links, the sending).
import type { ApiClient } from '../api/client.ts'
import type { handoffArrival } from '../api/handoff.ts'
import type { Connection, QueueOptions } from '../queue/queue.ts'
import type { SafeStorage } from '../queue/storage.ts'
import type { Timers } from '../shared/timers.ts'
import type { AttributionModule } from './attribution.ts'
import type { attributionCookie } from './attribution-cookie.ts'
import type { checkoutLinks } from './checkout/links.ts'
import type { Diagnosis } from './diagnosis.ts'
import type { Emitted } from './emitter.ts'
import type { Host } from './host.ts'
import type { PublicKey } from './keys.ts'
import type { outboundLinks } from './outbound.ts'
import type { Persisted } from './persisted.ts'
import type { CoreEvents, ReferralOptions } from './types.ts'

/** The options tracking needs, checked: the key parsed, the defaults applied. */
export interface TrackerOptions
  extends Pick<
    ReferralOptions,
    | 'consent'
    | 'campaignId'
    | 'debug'
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
   * tracking part loads it beside itself only on pages that set `cookieDomain`.
   */
  sharedCookie?: typeof attributionCookie | undefined
  /** Hand the attribution off to links to these hosts (lower case, `*.` for subdomains). */
  outbound?: readonly string[] | undefined
  /**
   * The module that does it, passed in like `sharedCookie` (loaded where `outbound` is set, or a
   * referral in the address waits for consent: it carries that one on the site's own links too).
   */
  outboundLinks?: typeof outboundLinks | undefined
  /**
   * Reads a hand-off that reached the page (`ref_handoff`), passed in too: the script tag loads it
   * (with the outbound links) only on a page a hand-off reached. Without it, none is read.
   */
  handoffArrival?: typeof handoffArrival | undefined
  /** Carry the held referral on the page's checkout links (links.ts). */
  checkout?: boolean | undefined
  /** The module that does it, passed in too: the script tag loads it only where it is needed. */
  checkoutLinks?: (() => Promise<typeof checkoutLinks | undefined>) | undefined
  /** What sends the queue, passed in too (the script tag loads it when there is something to send). */
  sending: QueueOptions['sending']
  /**
   * The debug file (src/core/debug), passed in too: the ESM package imports it, the script tag
   * loads it beside its tracking part, on the first debug(true) or diagnose().
   */
  debugging: () => Promise<DebugFile>
  /** How many cores with this key the page runs, where that is counted (the ESM package). */
  instances?: (() => number) | undefined
}

/** What the debug file reads of the tracking core (tracker.ts's `core` is one). */
export interface DebugCore {
  options: TrackerOptions
  key: PublicKey
  namespace: string
  api: Pick<ApiClient, 'request'>
  attribution: Pick<AttributionModule, 'get' | 'windowMs'>
  persisted: Persisted
  storage: SafeStorage
  host: Host
  now: () => number
  timers: Timers
  /** The last announcements (emitter.ts), and each as it comes. */
  events: {
    history: ReadonlyArray<Emitted<CoreEvents>>
    on<K extends keyof CoreEvents>(name: K, listener: (payload: CoreEvents[K]) => void): () => void
  }
  queueSize: () => number
  connection: () => Connection
  consented: () => boolean
  /** The visitor's Global Privacy Control signal is on, and honoured. */
  privacySignal: boolean
}

/** The debug file: the decisions in words, and the diagnosis. */
export interface DebugFile {
  /** Debug mode on or off: each decision printed once (those kept, then each as it comes). */
  debug(core: DebugCore, on: boolean): void
  /** The report; printed as a table too in debug mode. */
  diagnose(core: DebugCore): Promise<Diagnosis>
}

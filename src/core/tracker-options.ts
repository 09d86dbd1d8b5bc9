// What the tracking core is given: the options, checked, and the parts the script tag loads beside
// it only on pages that need them (the shared cookie, the outbound links, the sending).
import type { handoffArrival } from '../api/handoff.ts'
import type { QueueOptions } from '../queue/queue.ts'
import type { attributionCookie } from './attribution-cookie.ts'
import type { PublicKey } from './keys.ts'
import type { outboundLinks } from './outbound.ts'
import type { ReferralOptions } from './types.ts'

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
  /** What sends the queue, passed in too (the script tag loads it when there is something to send). */
  sending: QueueOptions['sending']
}

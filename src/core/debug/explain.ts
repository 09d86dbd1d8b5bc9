// Every decision in words: what happened, then what to do about it. One entry per code the widget
// can print, each with a section of its own in docs/TROUBLESHOOTING.md (a test holds the two
// together). A service error code without an entry of its own is explained by `other_service_code`.
import type { Decision } from './verdicts.ts'

type Facts = Decision & Record<string, unknown>
/** What happened, and what to do (empty where nothing is to be done). */
type Words = (facts: Facts) => [what: string, todo: string]

const text = (value: unknown) => String(value ?? '')
const time = (value: unknown) =>
  typeof value === 'number' && Number.isFinite(value) ? new Date(value).toISOString() : 'unknown'
const FROM: Record<string, string> = {
  link: 'the address (a referral link)',
  cookie: "the site's shared cookie (another subdomain)",
  handoff: 'a hand-off from another domain of the site',
}
const NO_ACTION = ''

export const EXPLANATIONS = {
  // The arrival.
  referral_captured: (f) => [
    `Referral ${text(f.referral)} captured from ${FROM[text(f.from)] ?? text(f.from)}, kept by the ${text(f.rule)}-touch rule for ${text(f.windowDays)} days`,
    'Within that window, a sign-up with it converts (in a first-purchase campaign, the first purchase).',
  ],
  no_referral: (f) => [
    `This address carried none of the referral parameters (${text(f.params)})`,
    "A visitor arrives through a link that carries ?ref=<code>: check that every redirect on the way keeps the query string, or name your links' parameter in data-ref-param.",
  ],
  referral_kept_first: (f) => [
    `Referral ${text(f.referral)} was not kept: ${text(f.held)} came first, and the first-touch rule keeps that one for the window`,
    "To credit the latest link instead, set attribution to 'last'.",
  ],
  referral_expired: (f) => [
    `Referral ${text(f.referral)} is past the campaign's attribution window, and was let go`,
    'Only a new arrival through a referral link credits a referrer now; the window is the campaign’s own, set on the service.',
  ],
  handoff_refused: (f) => [
    `A hand-off (ref_handoff) for ${text(f.referral)} was refused: older than 30 minutes, dated ahead, or not as the widget writes one`,
    'Hand-offs are written fresh on the outbound links the widget marks (data-outbound); a copied or bookmarked address carries a stale one. Its code counts as a plain arrival.',
  ],
  self_referral: (f) => [
    `${text(f.referral) || 'This event'} is the referrer's own: this browser was shown that link as its own, so nothing is credited`,
    'Try the link in another browser or a private window, as a friend would.',
  ],
  // The visitor's choices.
  consent_pending: () => [
    'Waiting for consent: nothing is recorded or sent, and the referral waits in the address',
    "Call Referral('consent', true) when the visitor accepts in your consent banner.",
  ],
  consent_refused: () => [
    'Consent was refused: nothing is recorded, and the referral held was let go',
    "Nothing to do, unless your banner called Referral('consent', false) by mistake.",
  ],
  gpc: (f) => [
    `Global Privacy Control is on in this browser and the site honours it: the visit through ${text(f.referral)} is not recorded`,
    'Nothing to do: the visitor asked not to be tracked (data-honor-gpc="false" turns this off, if your policy allows).',
  ],
  // The install.
  key_mode_mismatch: (f) => [
    f.mode === 'test'
      ? `A test key (pk_test_) runs on ${text(f.host)}, a public host name: its events never reward anyone`
      : `A live key (pk_live_) runs on ${text(f.host)}: events from development count as real ones`,
    'Use the pk_live_ key on your live site and the pk_test_ key while developing.',
  ],
  duplicate_tag: (f) => [
    `${text(f.count)} copies of the widget run on this page (${text(f.where)})`,
    'Keep one script tag, or one instance per key: the first one does the work, and the others only cost bytes.',
  ],
  storage_unavailable: () => [
    'localStorage cannot be written here (blocked, full, or a private mode that allows none): the referral and waiting events last only as long as this page',
    'Nothing to do on the page; this browser converts only a sign-up made on the same page as the arrival.',
  ],
  cookie_domain_refused: (f) => [
    `The browser refused the shared cookie for ${text(f.domain)} on ${text(f.host)}`,
    'data-cookie-domain must be this host name or a parent of it, and not a public suffix (such as co.uk or github.io).',
  ],
  // The road to the service.
  blocked_by_csp: (f) => [
    `The page's Content Security Policy (${text(f.directive)}) refused ${text(f.url)}`,
    `Allow it in ${text(f.directive).replace(/-(elem|attr)$/, '')}: the service's origin in connect-src, the widget's origin (or its nonce) in script-src.`,
  ],
  blocked_by_client: (f) => [
    `A request to ${text(f.service)} failed while the browser is online: an ad blocker or a privacy extension, most likely`,
    'Events wait in storage and go when a request gets through. Try with extensions off; the service under your own domain is blocked far less.',
  ],
  offline: () => [
    'The browser is offline: events wait in storage',
    'Nothing to do: they go when it is back online.',
  ],
  rate_limited: (f) => [
    `The service asked the widget to slow down (429): the next try is at ${time(f.retryAt)}`,
    'Nothing to do: events wait. If it keeps happening, the page calls track more than 100 times a minute per key.',
  ],
  service_error: (f) => [
    `The service failed (${text(f.status) === '0' ? 'no answer in time' : `status ${text(f.status)}`}: ${text(f.why)}); the next try is at ${time(f.retryAt)}`,
    'Nothing to do: events wait and are tried again. If it lasts, check the service.',
  ],
  // What became of an event.
  accepted: (f) => [`The service accepted the ${text(f.type)} ${text(f.id)}`, NO_ACTION],
  duplicate: (f) => [
    `The service had the ${text(f.type)} ${text(f.id)} already: it is counted once`,
    NO_ACTION,
  ],
  event_expired: (f) => [
    `The ${text(f.type)} ${text(f.id)} waited longer than the queue keeps an event, and was dropped`,
    'Events wait at most 7 days (maxEventAgeMs); a page that could not reach the service that long loses them.',
  ],
  event_overflow: (f) => [
    `The ${text(f.type)} ${text(f.id)} was dropped: the queue was full`,
    'The queue keeps 1,000 events (maxQueuedEvents); the oldest go first while the service cannot be reached.',
  ],
  event_invalid: (f) => [
    `The ${text(f.type)} ${text(f.id)} could not be sent as it was: it is outside the contract's bounds`,
    'Check the values given to track (a user id of at most 255 characters, a code of 8-12 letters or digits).',
  ],
  signup_without_referral: (f) => [
    `Sign-up ${text(f.userId)} recorded, but this browser holds no referral: nothing will convert`,
    'The friend must arrive through the referral link in this browser (within the window) before signing up; a sign-up recorded on your server needs the code passed to it.',
  ],
  // The service's verdicts, passed through.
  unknown_code: (f) => [
    `The service knows no referral code in the ${text(f.type)} ${text(f.id)}: ${text(f.why)}`,
    'The link was mistyped or belongs to another key (test and live keys have separate codes).',
  ],
  campaign_not_active: (f) => [
    `The campaign is not active (paused, ended, or not started): the ${text(f.type)} ${text(f.id)} was refused`,
    'Activate the campaign on the service; events refused now are not recorded later.',
  ],
  invalid_api_key: () => [
    'The service does not know this key: nothing is recorded',
    'Copy the publishable key (pk_test_ or pk_live_) from the service again into data-key.',
  ],
  expired_api_key: () => [
    'This key was rolled and is no longer accepted: nothing is recorded',
    'Put the current publishable key into data-key.',
  ],
  other_service_code: (f) => [
    `The service refused the ${text(f.type) || 'request'} ${text(f.id)} with ${text(f.code)}: ${text(f.why)}`,
    "Look the code up in the service's interface; the event is not sent again.",
  ],
} satisfies Record<string, Words>

export type ExplainedCode = keyof typeof EXPLANATIONS

const own = (code: string): code is ExplainedCode => Object.hasOwn(EXPLANATIONS, code)

/** The section of docs/TROUBLESHOOTING.md that explains `code`. */
export const sectionOf = (code: string): ExplainedCode => (own(code) ? code : 'other_service_code')

/** The decision as one console line: `[referral] <code>: <what>. <todo> <where to read more>`. */
export function explain(decision: Decision): string {
  const [what, todo] = EXPLANATIONS[sectionOf(decision.code)](decision as Facts)
  const more = `docs/TROUBLESHOOTING.md#${sectionOf(decision.code)}`
  return `[referral] ${decision.code}: ${what.replace(/\.$/, '')}. ${todo ? `${todo} ` : ''}${more}`
}

// What each option accepts, in one place for createReferral, the script tag's attributes and the
// custom element: a check gives the value to use, or undefined when it refuses the value, and a
// phrase that says what was expected.

import {
  CAMPAIGN_ID_PATTERN,
  MAX_USER_TOKEN_LENGTH,
  REFERRER_ID_PATTERN,
  USER_TOKEN_PATTERN,
} from '../api/wire.ts'
import { ConfigError } from '../shared/errors.ts'

const matching = (pattern: RegExp) => (value: unknown) =>
  typeof value === 'string' && pattern.test(value) ? value : undefined

const oneOf =
  <T extends string>(...values: T[]) =>
  (value: unknown) =>
    values.includes(value as T) ? (value as T) : undefined

/** An absolute http: or https: URL, else undefined. */
export function httpUrl(value: unknown): URL | undefined {
  try {
    const url = new URL(value as string)
    if (url.protocol === 'http:' || url.protocol === 'https:') return url
  } catch {}
}

/**
 * The service's base: an absolute http: or https: URL, or a path on the page's own site such as
 * `/referral` (kept as written; createReferral resolves it against the page's address).
 */
function apiBase(value: unknown): string | undefined {
  if (typeof value === 'string' && /^\/(?![/\\])[^\s\\]*$/.test(value)) return value
  return httpUrl(value)?.href
}

const DOMAIN = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/

/** A host name (no port, no scheme), lower-cased, a leading dot dropped as browsers do. */
function domain(value: unknown): string | undefined {
  if (typeof value !== 'string') return
  const name = value.toLowerCase().replace(/^\./, '')
  if (name.length <= 253 && DOMAIN.test(name)) return name
}

/**
 * One entry of `outbound`, lower-cased: a host name, or `*.` and one for any subdomain of it; ''
 * for an empty entry (skipped); undefined for anything else.
 */
function outboundHost(value: unknown): string | undefined {
  if (typeof value !== 'string') return
  const host = value.trim().toLowerCase()
  const name = host.startsWith('*.') ? host.slice(2) : host
  if (host === '' || (name.length <= 253 && DOMAIN.test(name))) return host
}

/** `outbound`: host names, as a comma-separated list or an array; empty entries are skipped. */
function outboundHosts(value: unknown): string[] | undefined {
  const entries =
    typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : [value]
  const hosts = entries.map(outboundHost)
  if (hosts.every((host) => host !== undefined)) return hosts.filter((host) => host !== '')
}

/** A URL parameter name, or a comma-separated list (or array) of them. */
function refParams(value: unknown): string[] | undefined {
  const names = (
    typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : []
  ).map((name: unknown) => (typeof name === 'string' ? name.trim() : ''))
  if (names.length > 0 && names.every((name) => /^[A-Za-z0-9_.-]{1,64}$/.test(name))) return names
}

/** true or false, as a boolean or an attribute's text (a bare attribute is true). */
const flag = (value: unknown) =>
  value === true || value === 'true' || value === ''
    ? true
    : value === false || value === 'false'
      ? false
      : undefined

function locale(value: unknown): string | undefined {
  try {
    if (typeof value === 'string') return Intl.getCanonicalLocales(value)[0]
  } catch {}
}

/** A user token as the server mints it: the shape only (the service checks the signature). */
const userToken = (value: unknown) =>
  typeof value === 'string' && value.length <= MAX_USER_TOKEN_LENGTH
    ? matching(USER_TOKEN_PATTERN)(value)
    : undefined

const CHECKS = {
  campaignId: [matching(CAMPAIGN_ID_PATTERN), 'a campaign id looks like camp_…'],
  userToken: [
    userToken,
    'a user token is v1.<payload>.<signature>, minted by your server with signUserToken',
  ],
  userId: [matching(REFERRER_ID_PATTERN), 'a user id is 1-128 letters, digits or _ . : @ -'],
  refParam: [
    refParams,
    'give a parameter name or a comma-separated list of them (letters, digits, _ . -)',
  ],
  landingUrl: [
    (value: unknown) => httpUrl(value)?.href,
    'it must be an absolute http: or https: URL',
  ],
  apiBase: [apiBase, 'it must be an absolute http: or https: URL, or a path such as /referral'],
  cookieDomain: [domain, 'it must be a domain such as shop.example, or auto'],
  outbound: [
    outboundHosts,
    'every entry must be a host name such as app.example.io, or *.example.org for its subdomains',
  ],
  locale: [locale, 'it must be a language tag such as en-US'],
  theme: [oneOf('light', 'dark', 'auto'), 'use light, dark or auto'],
  cleanUrl: [flag, 'use true or false'],
  honorGpc: [flag, 'use true or false'],
  consent: [oneOf('required'), 'the only value is "required", or leave it out'],
  attribution: [oneOf('last', 'first'), 'use last or first'],
} as const

export type CheckedOption = keyof typeof CHECKS

/**
 * Each option a page can set in markup, and its attribute on the script tag and on the custom
 * element. The two spellings differ where the script tag's shorter names came first (`data-key`,
 * `data-api`, `data-campaign`); both stay accepted as documented.
 */
export const OPTION_ATTRIBUTES = {
  publicKey: { scriptTag: 'data-key', element: 'public-key' },
  apiBase: { scriptTag: 'data-api', element: 'api-base' },
  campaignId: { scriptTag: 'data-campaign', element: 'campaign-id' },
  userId: { scriptTag: 'data-user-id', element: 'user-id' },
  userToken: { scriptTag: 'data-user-token', element: 'user-token' },
  refParam: { scriptTag: 'data-ref-param', element: 'ref-param' },
  landingUrl: { scriptTag: 'data-landing-url', element: 'landing-url' },
  locale: { scriptTag: 'data-locale', element: 'locale' },
  theme: { scriptTag: 'data-theme', element: 'theme' },
  cleanUrl: { scriptTag: 'data-clean-url', element: 'clean-url' },
  consent: { scriptTag: 'data-consent', element: 'consent' },
  honorGpc: { scriptTag: 'data-honor-gpc', element: 'honor-gpc' },
  cookieDomain: { scriptTag: 'data-cookie-domain', element: 'cookie-domain' },
  attribution: { scriptTag: 'data-attribution', element: 'attribution' },
  outbound: { scriptTag: 'data-outbound', element: 'outbound' },
} as const satisfies Record<CheckedOption | 'publicKey', { scriptTag: string; element: string }>

export type MarkupOption = keyof typeof OPTION_ATTRIBUTES
type Accepted<K extends CheckedOption> = NonNullable<ReturnType<(typeof CHECKS)[K][0]>>

/** The value quoted as JSON, cut (with an ellipsis) so the escaped text stays within 80. */
export const quote = (value: unknown) => {
  const text = typeof value === 'string' ? value : String(JSON.stringify(value))
  let shown = text.slice(0, 80)
  while (JSON.stringify(shown).length > 82) shown = shown.slice(0, -1)
  return JSON.stringify(shown === text ? text : `${shown}…`)
}

/** Options whose value is a credential: a refusal never quotes it (it would reach a log). */
const SECRET: ReadonlySet<CheckedOption> = new Set(['userToken'])

/**
 * The value to use for an option, or a ConfigError naming it (as `label`: an attribute's name
 * where it came from one) with the value, quoted and shortened (never a credential's), and what
 * was expected.
 */
export function checkOption<K extends CheckedOption>(
  name: K,
  value: unknown,
  label: string = name,
  verdict = 'is refused',
): Accepted<K> {
  const [accept, expected] = CHECKS[name]
  const accepted = accept(value)
  if (accepted === undefined) {
    const shown = SECRET.has(name) ? '' : `=${quote(value)}`
    throw new ConfigError(label, `${label}${shown} ${verdict}: ${expected}.`)
  }
  return accepted as Accepted<K>
}

/**
 * An apiBase as checkOption gives it, made absolute: a path (`/referral`) resolved against the
 * page's address. A ConfigError where there is no http: or https: page to resolve it against.
 */
export function resolveApiBase(base: string, href: string | undefined): string {
  if (!base.startsWith('/')) return base
  let url: URL | undefined
  try {
    url = httpUrl(new URL(base, href).href)
  } catch {}
  if (!url) {
    throw new ConfigError(
      'apiBase',
      `apiBase=${quote(base)} is refused: a path needs an http: or https: page to resolve against; give an absolute URL here.`,
    )
  }
  return url.href
}

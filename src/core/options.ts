// What each option accepts, in one place for createReferral, the script tag's attributes and the
// custom element: a check gives the value to use, or undefined when it refuses the value. What
// each expects, in words, is option-errors.ts's (the script tag's tracking part needs the checks
// alone; a refusal there is reported by its checks file).

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
  apiBase: apiBase,
  campaignId: matching(CAMPAIGN_ID_PATTERN),
  userId: matching(REFERRER_ID_PATTERN),
  userToken: userToken,
  refParam: refParams,
  landingUrl: (value: unknown) => httpUrl(value)?.href,
  locale: locale,
  theme: oneOf('light', 'dark', 'auto'),
  cleanUrl: flag,
  consent: oneOf('required'),
  honorGpc: flag,
  cookieDomain: domain,
  attribution: oneOf('last', 'first'),
  outbound: outboundHosts,
  checkout: flag,
  debug: flag,
} as const

export type CheckedOption = keyof typeof CHECKS

/** `campaignId` → `campaign-id`: an option's name as an element's attribute. */
type Kebab<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `-${Lowercase<Head>}`}${Kebab<Tail>}`
  : S
const kebab = (name: string) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)

/** The script tag's names where its shorter ones came first; the rest are `data-` + the element's. */
const SHORTER: Record<string, string> = {
  publicKey: 'data-key',
  apiBase: 'data-api',
  campaignId: 'data-campaign',
}

/**
 * Each option a page can set in markup, and its attribute on the script tag and on the custom
 * element: the element's is the option's name in kebab case, the script tag's `data-` and that,
 * but where its shorter names came first (`data-key`, `data-api`, `data-campaign`); both stay
 * accepted as documented.
 */
export const OPTION_ATTRIBUTES = Object.fromEntries(
  ['publicKey', ...Object.keys(CHECKS)].map((option) => [
    option,
    { scriptTag: SHORTER[option] ?? `data-${kebab(option)}`, element: kebab(option) },
  ]),
) as { [K in CheckedOption | 'publicKey']: { scriptTag: string; element: Kebab<K> } }

export type MarkupOption = keyof typeof OPTION_ATTRIBUTES
export type Accepted<K extends CheckedOption> = NonNullable<ReturnType<(typeof CHECKS)[K]>>

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
 * The error for a refused option: naming it (as `label`: an attribute's name where it came from
 * one) with the value, quoted and shortened (never a credential's), and what was `expected`
 * (option-errors.ts has each option's sentence).
 */
export const refusal = (
  name: CheckedOption,
  value: unknown,
  expected: string,
  label: string = name,
  verdict = 'is refused',
) =>
  new ConfigError(
    label,
    `${label}${SECRET.has(name) ? '' : `=${quote(value)}`} ${verdict}: ${expected}.`,
  )

/** The value to use for an option, or undefined when it is refused (checkOption says why). */
export const accepted = <K extends CheckedOption>(name: K, value: unknown) =>
  CHECKS[name](value as never) as Accepted<K> | undefined

/**
 * The value to use for an option, or its refusal thrown, with what was `expected` (one sentence of
 * option-errors.ts: code that checks one option carries that one alone).
 */
export function checked<K extends CheckedOption>(
  name: K,
  value: unknown,
  expected: string,
  label: string = name,
  verdict?: string,
): Accepted<K> {
  const result = accepted(name, value)
  if (result === undefined) throw refusal(name, value, expected, label, verdict)
  return result
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
      `apiBase=${quote(base)} is refused: a path needs an http: or https: page; give an absolute URL.`,
    )
  }
  return url.href
}

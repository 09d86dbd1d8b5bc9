// The script tag's data- attributes, checked one by one: a bad one is reported with a clear
// console.error and replaced by its default; only a bad key stops the widget.
import { ConfigError } from '../api/errors.ts'
import { checkCookieDomain } from '../core/attribution-cookie.ts'
import type { ReferralOptions } from '../core/create-referral.ts'
import { parsePublicKey } from '../core/keys.ts'
import { type CheckedOption, checkOption, httpUrl, quote } from '../core/options.ts'
import type { Messages } from '../ui/messages/index.ts'

export interface EmbedConfig {
  options: ReferralOptions
  messages: Partial<Messages> | undefined
  /** One sentence per attribute that was refused. */
  problems: string[]
}

/** Attributes that map one to one onto an option, checked as createReferral checks it. */
const SIMPLE = {
  campaign: 'campaignId',
  'user-id': 'userId',
  'ref-param': 'refParam',
  'landing-url': 'landingUrl',
  locale: 'locale',
  theme: 'theme',
  'clean-url': 'cleanUrl',
  consent: 'consent',
  'honor-gpc': 'honorGpc',
  'cookie-domain': 'cookieDomain',
} as const

/**
 * Reads the attributes; throws a ConfigError when the key is missing, malformed or secret,
 * so nothing is stored, sent or shown.
 */
export function readAttributes(
  attributes: { getAttribute(name: string): string | null },
  scriptSrc: string | undefined,
  pageHref: string | undefined = globalThis.location?.href,
): EmbedConfig {
  const get = (name: string) => attributes.getAttribute(`data-${name}`) ?? undefined
  const problems: string[] = []
  /** The attribute's checked value, or undefined (and a problem sentence) when it is refused. */
  const read = <K extends CheckedOption>(name: string, option: K) => {
    const value = get(name)
    if (value === undefined) return undefined
    try {
      return checkOption(option, value, `data-${name}`, 'is ignored')
    } catch (failure) {
      problems.push((failure as Error).message)
    }
  }

  const key = parsePublicKey(get('key'), 'data-key')
  const apiBase = read('api', 'apiBase') ?? (scriptSrc ? httpUrl(scriptSrc)?.origin : undefined)
  if (apiBase === undefined) {
    throw new ConfigError(
      'data-api',
      'data-api is required when the script is not loaded from the service’s origin.',
    )
  }
  const options: Record<string, unknown> = { publicKey: key.key, apiBase }
  for (const [name, option] of Object.entries(SIMPLE)) {
    const value = read(name, option)
    if (value !== undefined) options[option] = value
  }
  if (options.cleanUrl === true) delete options.cleanUrl // the default
  if (options.honorGpc === false) delete options.honorGpc // the default
  // A domain the browser would refuse the cookie for is reported, and the widget runs without it.
  if (typeof options.cookieDomain === 'string' && pageHref !== undefined) {
    try {
      checkCookieDomain(options.cookieDomain, pageHref, 'data-cookie-domain', 'is ignored')
    } catch (failure) {
      problems.push((failure as Error).message)
      delete options.cookieDomain
    }
  }

  let messages: Partial<Messages> | undefined
  const rawMessages = get('messages')
  if (rawMessages !== undefined) {
    try {
      const parsed: unknown = JSON.parse(rawMessages)
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error()
      messages = Object.fromEntries(
        Object.entries(parsed).filter(([, value]) => typeof value === 'string'),
      )
    } catch {
      problems.push(
        `data-messages=${quote(rawMessages)} is ignored: it must be a JSON object of message strings.`,
      )
    }
  }
  return { options: options as unknown as ReferralOptions, messages, problems }
}

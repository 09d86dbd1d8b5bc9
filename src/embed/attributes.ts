// The script tag's data- attributes, checked one by one: a bad one is reported with a clear
// console.error and replaced by its default; only a bad key stops the widget.
import { ConfigError } from '../api/errors.ts'
import type { ReferralOptions } from '../core/create-referral.ts'
import { parsePublicKey } from '../core/keys.ts'
import { type CheckedOption, checkOption, httpUrl, quote } from '../core/options.ts'
import type { MessageOverrides } from '../ui/messages/index.ts'

export interface EmbedConfig {
  options: ReferralOptions
  messages: MessageOverrides | undefined
  /** data-share-utm: tag each channel's link with utm_source/utm_medium. */
  shareUtm: boolean | undefined
  /** One sentence per attribute that was refused. */
  problems: string[]
}

/** A counted message's plural forms, e.g. {"one": "…", "other": "…"}: strings only. */
const isForms = (value: unknown) =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  Object.values(value).every((form) => typeof form === 'string')

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
} as const

/**
 * Reads the attributes; throws a ConfigError when the key is missing, malformed or secret,
 * so nothing is stored, sent or shown.
 */
export function readAttributes(
  attributes: { getAttribute(name: string): string | null },
  scriptSrc: string | undefined,
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

  let messages: MessageOverrides | undefined
  const rawMessages = get('messages')
  if (rawMessages !== undefined) {
    try {
      const parsed: unknown = JSON.parse(rawMessages)
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error()
      messages = Object.fromEntries(
        Object.entries(parsed).filter(([, value]) => typeof value === 'string' || isForms(value)),
      )
    } catch {
      problems.push(
        `data-messages=${quote(rawMessages)} is ignored: it must be a JSON object of message strings.`,
      )
    }
  }

  const utm = get('share-utm')
  if (utm !== undefined && utm !== 'true' && utm !== 'false')
    problems.push(`data-share-utm=${quote(utm)} is ignored: it must be true or false.`)
  return {
    options: options as unknown as ReferralOptions,
    messages,
    shareUtm: utm === 'true' || undefined,
    problems,
  }
}

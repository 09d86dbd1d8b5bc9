// The script tag's data- attributes, checked one by one: a bad one is reported with a clear
// console.error and replaced by its default; only a bad key stops the widget.
import { ConfigError } from '../api/errors.ts'
import { CAMPAIGN_ID_PATTERN, REFERRER_ID_PATTERN } from '../api/wire.ts'
import { parseRefParams } from '../core/attribution.ts'
import type { ReferralOptions, Theme } from '../core/create-referral.ts'
import { parsePublicKey } from '../core/keys.ts'
import type { Messages } from '../ui/messages/index.ts'

export interface EmbedConfig {
  options: ReferralOptions
  messages: Partial<Messages> | undefined
  /** One sentence per attribute that was refused. */
  problems: string[]
}

const httpUrl = (value: string) => {
  try {
    const url = new URL(value)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null
  } catch {
    return null
  }
}

const quote = (value: string) =>
  JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value)

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
  const refuse = (name: string, value: string, expected: string) =>
    problems.push(`data-${name}=${quote(value)} is ignored: ${expected}.`)

  const key = parsePublicKey(get('key'), 'data-key')

  let apiBase = scriptSrc ? httpUrl(scriptSrc)?.origin : undefined
  const api = get('api')
  if (api !== undefined) {
    const url = httpUrl(api)
    if (url) apiBase = url.toString()
    else refuse('api', api, 'it must be an http: or https: URL')
  }
  if (apiBase === undefined) {
    throw new ConfigError(
      'data-api',
      'data-api is required when the script is not loaded from the service’s origin.',
    )
  }

  const options: ReferralOptions = { publicKey: key.key, apiBase }

  const campaign = get('campaign')
  if (campaign !== undefined) {
    if (CAMPAIGN_ID_PATTERN.test(campaign)) options.campaignId = campaign
    else
      refuse(
        'campaign',
        campaign,
        'a campaign id looks like camp_…; the newest active campaign is used',
      )
  }
  const userId = get('user-id')
  if (userId !== undefined) {
    if (REFERRER_ID_PATTERN.test(userId)) options.userId = userId
    else refuse('user-id', userId, 'a user id is 1-128 letters, digits or _ . : @ -')
  }
  const refParam = get('ref-param')
  if (refParam !== undefined) {
    try {
      options.refParam = parseRefParams(refParam)
    } catch {
      refuse(
        'ref-param',
        refParam,
        'give a parameter name or a comma-separated list; "ref" is used',
      )
    }
  }
  const landing = get('landing-url')
  if (landing !== undefined) {
    const url = httpUrl(landing)
    if (url) options.landingUrl = url.toString()
    else refuse('landing-url', landing, 'it must be an http: or https: URL')
  }
  const locale = get('locale')
  if (locale !== undefined) {
    try {
      options.locale = Intl.getCanonicalLocales(locale)[0] ?? locale
    } catch {
      refuse('locale', locale, 'it must be a language tag such as en-US')
    }
  }
  const theme = get('theme')
  if (theme !== undefined) {
    if (theme === 'light' || theme === 'dark' || theme === 'auto') options.theme = theme as Theme
    else refuse('theme', theme, 'use light, dark or auto')
  }
  const clean = get('clean-url')
  if (clean !== undefined) {
    if (clean === 'false') options.cleanUrl = false
    else if (clean !== 'true' && clean !== '') refuse('clean-url', clean, 'use true or false')
  }

  const consent = get('consent')
  if (consent !== undefined) {
    if (consent === 'required') options.consent = 'required'
    else
      refuse(
        'consent',
        consent,
        'the only value is "required"; the widget stores and sends without asking',
      )
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
      refuse('messages', rawMessages, 'it must be a JSON object of message strings')
    }
  }
  return { options, messages, problems }
}

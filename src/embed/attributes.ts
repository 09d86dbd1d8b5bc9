// The script tag's data- attributes, checked one by one: a bad one is reported with a clear
// console.error and replaced by its default; only a bad key stops the widget.
import { checkCookieDomain } from '../core/attribution-cookie.ts'
import { parsePublicKey } from '../core/keys.ts'
import {
  type CheckedOption,
  checkOption,
  httpUrl,
  type MarkupOption,
  OPTION_ATTRIBUTES,
  quote,
} from '../core/options.ts'
import type { ReferralOptions } from '../core/types.ts'
import { ConfigError, messageOf } from '../shared/errors.ts'
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

/** Options whose attribute maps one to one onto them, checked as createReferral checks it. */
const SIMPLE = (Object.keys(OPTION_ATTRIBUTES) as MarkupOption[]).filter(
  (option): option is Exclude<MarkupOption, 'publicKey' | 'apiBase'> =>
    option !== 'publicKey' && option !== 'apiBase',
)

/**
 * Reads the attributes; throws a ConfigError when the key is missing, malformed or secret,
 * so nothing is stored, sent or shown.
 */
export function readAttributes(
  attributes: { getAttribute(name: string): string | null },
  scriptSrc: string | undefined,
  pageHref: string | undefined = globalThis.location?.href,
): EmbedConfig {
  const get = (name: string) => attributes.getAttribute(name) ?? undefined
  const problems: string[] = []
  /** The option's attribute, checked, or undefined (and a problem sentence) when it is refused. */
  const read = <K extends CheckedOption>(option: K) => {
    const name = OPTION_ATTRIBUTES[option].scriptTag
    const value = get(name)
    if (value === undefined) return undefined
    try {
      return checkOption(option, value, name, 'is ignored')
    } catch (failure) {
      problems.push(messageOf(failure))
    }
  }

  const { publicKey: keyAttribute, apiBase: apiAttribute } = OPTION_ATTRIBUTES
  const key = parsePublicKey(get(keyAttribute.scriptTag), keyAttribute.scriptTag)
  const apiBase = read('apiBase') ?? (scriptSrc ? httpUrl(scriptSrc)?.origin : undefined)
  if (apiBase === undefined) {
    throw new ConfigError(
      apiAttribute.scriptTag,
      `${apiAttribute.scriptTag} is required when the script is not loaded from the service’s origin.`,
    )
  }
  const options: Record<string, unknown> = { publicKey: key.key, apiBase }
  for (const option of SIMPLE) {
    const value = read(option)
    if (value !== undefined) options[option] = value
  }
  if (options.cleanUrl === true) delete options.cleanUrl // the default
  if (options.honorGpc === false) delete options.honorGpc // the default
  // A domain the browser would refuse the cookie for is reported, and the widget runs without it.
  if (typeof options.cookieDomain === 'string' && pageHref !== undefined) {
    try {
      checkCookieDomain(
        options.cookieDomain,
        pageHref,
        OPTION_ATTRIBUTES.cookieDomain.scriptTag,
        'is ignored',
      )
    } catch (failure) {
      problems.push(messageOf(failure))
      delete options.cookieDomain
    }
  }
  // A domain the browser would refuse the cookie for is reported, and the widget runs without it.
  if (typeof options.cookieDomain === 'string' && pageHref !== undefined) {
    try {
      checkCookieDomain(options.cookieDomain, pageHref, 'data-cookie-domain', 'is ignored')
    } catch (failure) {
      problems.push((failure as Error).message)
      delete options.cookieDomain
    }
  }

  let messages: MessageOverrides | undefined
  const rawMessages = get('data-messages')
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

  const utm = get('data-share-utm')
  if (utm !== undefined && utm !== 'true' && utm !== 'false')
    problems.push(`data-share-utm=${quote(utm)} is ignored: it must be true or false.`)
  return {
    options: options as unknown as ReferralOptions,
    messages,
    shareUtm: utm === 'true' || undefined,
    problems,
  }
}

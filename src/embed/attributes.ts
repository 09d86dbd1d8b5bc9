// The script tag's data- attributes, checked one by one: a bad one is reported with a clear
// console.error and replaced by its default; only a bad key stops the widget.
import { checkCookieDomain } from '../core/attribution-cookie.ts'
import { AUTO } from '../core/cookie-domain.ts'
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
import { own } from '../shared/own.ts'

/** What tracking takes from the script tag: its options, and a sentence per refused attribute. */
export interface TrackingConfig {
  options: ReferralOptions
  /** The global the command function goes to (data-global): `Referral` by default. */
  global: string
  /** One sentence per attribute that was refused. */
  problems: string[]
}

/** A name a script can write as `NAME(...)`, and not one of the page's own objects. */
const GLOBAL_NAME = /^[A-Za-z_$][\w$]{0,63}$/
const NOT_GLOBALS = ['window', 'self', 'top', 'parent', 'frames', 'document', 'location', 'name']

/** Options whose attribute maps one to one onto them, checked as createReferral checks it. */
const SIMPLE = (Object.keys(OPTION_ATTRIBUTES) as MarkupOption[]).filter(
  (option): option is Exclude<MarkupOption, 'publicKey' | 'apiBase'> =>
    option !== 'publicKey' && option !== 'apiBase',
)

export type Attributes = { getAttribute(name: string): string | null }

/** The options' attributes, checked; throws a ConfigError for a missing, malformed or secret key. */
export function readTrackingAttributes(
  attributes: Attributes,
  scriptSrc: string | undefined,
  pageHref: string | undefined = globalThis.location?.href,
): TrackingConfig {
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
  const options: Record<string, unknown> = own({ publicKey: key.key, apiBase })
  for (const option of SIMPLE) {
    const value = read(option)
    if (value !== undefined) options[option] = value
  }
  if (options.cleanUrl === true) delete options.cleanUrl // the default
  if (options.honorGpc === false) delete options.honorGpc // the default
  // A domain the browser would refuse the cookie for is reported, and the widget runs without it.
  const cookieDomain = options.cookieDomain
  if (typeof cookieDomain === 'string' && cookieDomain !== AUTO && pageHref !== undefined) {
    try {
      checkCookieDomain(
        cookieDomain,
        pageHref,
        OPTION_ATTRIBUTES.cookieDomain.scriptTag,
        'is ignored',
      )
    } catch (failure) {
      problems.push(messageOf(failure))
      delete options.cookieDomain
    }
  }
  let global = get('data-global') ?? 'Referral'
  if (!GLOBAL_NAME.test(global) || NOT_GLOBALS.includes(global)) {
    problems.push(
      `data-global=${quote(global)} is ignored: it must be a name a script can call, such as ReferralWidget.`,
    )
    global = 'Referral'
  }

  return { options: options as unknown as ReferralOptions, global, problems }
}

// The script tag's data- attributes, checked one by one: a bad one is reported with a clear
// console.error and replaced by its default; only a bad key stops the widget. The reading is one;
// the checks are two: `quiet` (the tracking part's: the values, and whether anything was refused)
// and the precise ones with their sentences (attribute-checks.ts, in the checks file), which the
// tracking part loads only when a tag has something to report.
import { AUTO } from '../core/cookie-domain.ts'
import type { PublicKey } from '../core/keys.ts'
import {
  accepted,
  type CheckedOption,
  httpUrl,
  type MarkupOption,
  OPTION_ATTRIBUTES,
} from '../core/options.ts'
import type { ReferralOptions } from '../core/types.ts'
import { messageOf } from '../shared/errors.ts'
import { own } from '../shared/own.ts'
import { GLOBAL_NAME, readKey } from './loader/tag.ts'

/** What tracking takes from the script tag: its options, and a sentence per refused attribute. */
export interface TrackingConfig {
  /** Every option checked, those refused left out (`apiBase` as written: a path stays a path). */
  options: ReferralOptions
  key: PublicKey
  /** The global the command function goes to (data-global): `Referral` by default. */
  global: string
  /** One sentence per attribute that was refused. */
  problems: string[]
}

/** Options whose attribute maps one to one onto them, checked as createReferral checks it. */
const SIMPLE = (Object.keys(OPTION_ATTRIBUTES) as MarkupOption[]).filter(
  (option): option is Exclude<MarkupOption, 'publicKey' | 'apiBase'> =>
    option !== 'publicKey' && option !== 'apiBase',
)

export type Attributes = { getAttribute(name: string): string | null }

/** How each attribute is checked: each throws (saying why, where it says) when it refuses. */
export interface AttributeChecks {
  option<K extends CheckedOption>(
    option: K,
    value: string,
    attribute: string,
  ): NonNullable<ReturnType<typeof accepted<K>>>
  /** The key; throws for a missing, malformed or secret one (the widget stops). */
  key(written: string | null, attribute: string): PublicKey
  /** A cookie domain the page's host is under. */
  cookieDomain(domain: string, href: string, attribute: string): void
  /** The sentence for data-api missing where the script's origin is no service. */
  noApi(attribute: string): string
  /** The sentence for a data-global that is no name a script can call. */
  badGlobal(value: string): string
  /** The sentence for a global name the page already uses for something of its own. */
  ownGlobal(name: string): string
}

const REFUSED = 'refused'
const refuse = (): never => {
  throw new Error(REFUSED)
}

/** The tracking part's checks: the values alone; a refusal is said by the precise checks. */
export const quiet: AttributeChecks = {
  option: (option, value) => accepted(option, value) ?? refuse(),
  key: (written) => readKey(written) ?? refuse(),
  cookieDomain(domain, href) {
    const host = new URL(href).hostname
    if (host !== domain && !host.endsWith(`.${domain}`)) refuse()
  },
  noApi: () => REFUSED,
  badGlobal: () => REFUSED,
  ownGlobal: () => REFUSED,
}

/**
 * The options' attributes, checked by `checks`; throws where the key is refused. `problems`: one
 * sentence per attribute refused (quiet: any entry means the precise checks have more to say).
 */
export function readTrackingAttributes(
  attributes: Attributes,
  scriptSrc: string | undefined,
  pageHref: string | undefined,
  checks: AttributeChecks,
): TrackingConfig {
  const get = (name: string) => attributes.getAttribute(name) ?? undefined
  const problems: string[] = []
  /** The option's attribute, checked, or undefined (and a problem sentence) when it is refused. */
  const read = <K extends CheckedOption>(option: K) => {
    const name = OPTION_ATTRIBUTES[option].scriptTag
    const value = get(name)
    if (value === undefined) return undefined
    try {
      return checks.option(option, value, name)
    } catch (failure) {
      problems.push(messageOf(failure))
    }
  }

  const { publicKey: keyAttribute, apiBase: apiAttribute } = OPTION_ATTRIBUTES
  const key = checks.key(attributes.getAttribute(keyAttribute.scriptTag), keyAttribute.scriptTag)
  const apiBase = read('apiBase') ?? (scriptSrc ? httpUrl(scriptSrc)?.origin : undefined)
  if (apiBase === undefined) throw new Error(checks.noApi(apiAttribute.scriptTag))
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
      checks.cookieDomain(cookieDomain, pageHref, OPTION_ATTRIBUTES.cookieDomain.scriptTag)
    } catch (failure) {
      problems.push(messageOf(failure))
      delete options.cookieDomain
    }
  }
  let global = get('data-global') ?? 'Referral'
  if (!GLOBAL_NAME.test(global)) {
    problems.push(checks.badGlobal(global))
    global = 'Referral'
  }

  return { options: options as unknown as ReferralOptions, key, global, problems }
}

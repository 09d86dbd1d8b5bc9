// The script tag's data- attributes, checked one by one: a bad one is reported with a clear
// console.error and replaced by its default; only a bad key stops the widget.

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
import type { Messages } from '../ui/messages/index.ts'

export interface EmbedConfig {
  options: ReferralOptions
  messages: Partial<Messages> | undefined
  /** One sentence per attribute that was refused. */
  problems: string[]
}

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

  let messages: Partial<Messages> | undefined
  const rawMessages = get('data-messages')
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

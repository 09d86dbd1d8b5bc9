import { CATALOG } from './catalog.ts'
import { languageOf, pickLanguage, type UiLanguage } from './languages.ts'
import type { Messages, PluralMessage } from './messages.ts'

export type { Messages, PluralMessage } from './messages.ts'

/** What a host may replace: any message by a string, a counted one also by its plural forms. */
export type MessageOverrides = {
  [K in keyof Messages]?: Messages[K] extends PluralMessage ? PluralMessage | string : string
}

/** The languages built in; the script tag's UI file for a language carries only that one. */
export const BUILT_IN: Record<string, Messages> = CATALOG

const RTL = new Set(['ar', 'he', 'fa', 'ur'])
const CATEGORIES = ['zero', 'one', 'two', 'few', 'many', 'other'] as const

/** A host's plural override: a string stands for every count; an object needs `other`. */
function pluralOverride(value: unknown): PluralMessage | undefined {
  if (typeof value === 'string') return { other: value }
  if (typeof value !== 'object' || value === null) return undefined
  const forms = value as Record<string, unknown>
  if (typeof forms.other !== 'string') return undefined
  const result: PluralMessage = { other: forms.other }
  for (const category of CATEGORIES) {
    const form = forms[category]
    if (typeof form === 'string') result[category] = form
  }
  return result
}

/** The built-in language a locale's messages come from (see `pickLanguage`). */
export function messagesLanguage(locale: string): UiLanguage {
  const language = pickLanguage(locale)
  // A single-language UI file holds only its own language: that one it is.
  return BUILT_IN[language] ? language : ((Object.keys(BUILT_IN)[0] ?? 'en') as UiLanguage)
}

/** The built-in messages for a locale (English when unknown), with the host's overrides. */
export function messagesFor(locale: string, overrides: MessageOverrides = {}): Messages {
  const base = BUILT_IN[messagesLanguage(locale)] as Messages
  const merged: Record<string, unknown> = { ...base }
  for (const [key, builtIn] of Object.entries(base)) {
    if (!Object.hasOwn(overrides, key)) continue
    const value = (overrides as Record<string, unknown>)[key]
    const replacement = typeof builtIn === 'string' ? value : pluralOverride(value)
    if (typeof replacement === (typeof builtIn === 'string' ? 'string' : 'object'))
      merged[key] = replacement
  }
  return merged as unknown as Messages
}

export const isRightToLeft = (locale: string) => RTL.has(languageOf(locale))

/** Fills `{name}` placeholders; unknown ones stay as written. */
export function message(template: string, values: Record<string, string> = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole)
}

/** The form of a counted message for `count` in `locale`, with {count} written in that locale. */
export function plural(
  forms: PluralMessage,
  count: number,
  locale: string,
  values: Record<string, string> = {},
): string {
  const category = new Intl.PluralRules(locale).select(count) as keyof PluralMessage
  const template = forms[category] ?? forms.other
  return message(template, { ...values, count: new Intl.NumberFormat(locale).format(count) })
}

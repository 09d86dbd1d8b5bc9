import { CATALOG } from './catalog.ts'
import { languageOf, pickLanguage, type UiLanguage } from './languages.ts'

/** A message that shows a count: one text per plural category of the language (`other` always). */
export type PluralMessage = { other: string } & Partial<
  Record<'zero' | 'one' | 'two' | 'few' | 'many', string>
>

// Built-in messages. Placeholders in braces are filled in by `message()`; every message can be
// replaced by the host (`messages` option or `data-messages`).
export interface Messages {
  /** {give}: the friend's reward; {get}: the referrer's. */
  headline: string
  referrerReward: string
  referredReward: string
  linkLabel: string
  copy: string
  copied: string
  copyFailed: string
  share: string
  shareVia: string
  /** What each channel shares; {give}, {get}: the rewards; {url}: the link (added at the end when left out). */
  emailSubject: string
  emailBody: string
  xText: string
  whatsappText: string
  linkedinText: string
  /** The native share sheet's text; the link goes alongside it unless {url} places it. */
  nativeText: string
  /** The QR code control and its dialog; {url} in qrAlt: the link the code holds. */
  qr: string
  qrTitle: string
  qrAlt: string
  downloadPng: string
  downloadSvg: string
  close: string
  qrFailed: string
  signIn: string
  error: string
  /** {count}: the events waiting to be sent. */
  offline: PluralMessage
  rateLimited: PluralMessage
  testMode: string
  /** The referred visitor's banner; {give}: their reward. */
  banner: string
  dismiss: string
  loading: string
}

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

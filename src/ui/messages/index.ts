import { CATALOG } from './catalog.ts'
import { languageOf as language } from './languages.ts'
import type { Messages } from './messages.ts'

export type { Messages } from './messages.ts'

/** The languages built in; the script tag's UI file for a language carries only that one. */
export const BUILT_IN: Record<string, Messages> = CATALOG

const RTL = new Set(['ar', 'he', 'fa', 'ur'])

/** The built-in messages for a locale (English when unknown), with the host's overrides. */
export function messagesFor(locale: string, overrides: Partial<Messages> = {}): Messages {
  const base = BUILT_IN[language(locale)] ?? (Object.values(BUILT_IN)[0] as Messages)
  const merged = { ...base }
  for (const key of Object.keys(base) as Array<keyof Messages>) {
    const value = overrides[key]
    if (typeof value === 'string') merged[key] = value
  }
  return merged
}

export const isRightToLeft = (locale: string) => RTL.has(language(locale))

/** Fills `{name}` placeholders; unknown ones stay as written. */
export function message(template: string, values: Record<string, string> = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole)
}

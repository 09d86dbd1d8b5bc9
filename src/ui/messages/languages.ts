// Which built-in language a locale gets, and the script tag's messages file for it. Shared by
// the tracking part (to fetch the messages beside the UI file) and the UI (to pick the
// messages), so the two agree.

/**
 * The built-in languages: English is in the script tag's UI file, each other one in
 * `referral-widget-messages-<language>.js` beside it.
 */
export const UI_LANGUAGES = [
  'en',
  'de',
  'fr',
  'es',
  'ja',
  'ar',
  'pt-BR',
  'it',
  'nl',
  'pl',
  'zh-CN',
  'ko',
] as const
export type UiLanguage = (typeof UI_LANGUAGES)[number]

/** The language subtag of a locale: `de` for `de-AT`. */
export const languageOf = (locale: string) => locale.toLowerCase().split(/[-_]/)[0] ?? 'en'

// Traditional Chinese (Taiwan, Hong Kong, Macau, or said outright) is not Simplified Chinese:
// a reader of one is better served by English than by the other script.
const TRADITIONAL = /^zh(?:[-_](?:hant|tw|hk|mo)\b)/i

/** The built-in language for one locale, or undefined when none fits it. */
export function builtInLanguage(locale: string): UiLanguage | undefined {
  const language = languageOf(locale)
  if (language === 'pt') return 'pt-BR' // the only Portuguese: closer for pt-PT than English
  if (language === 'zh') return TRADITIONAL.test(locale) ? undefined : 'zh-CN'
  return (UI_LANGUAGES as readonly string[]).includes(language)
    ? (language as UiLanguage)
    : undefined
}

/** What the negotiation reads of the browser (navigator, or a stand-in in tests). */
export type BrowserLanguages = Pick<Navigator, 'language' | 'languages'> | null | undefined

/**
 * The built-in language for the widget's locale. When no locale was given, the widget's locale is
 * the browser's own (`navigator.language`); then every language the visitor accepts
 * (`navigator.languages`, in their order) is tried before English.
 */
export function pickLanguage(
  locale: string,
  browser: BrowserLanguages = globalThis.navigator,
): UiLanguage {
  const candidates =
    browser && locale === browser.language ? [locale, ...browser.languages] : [locale]
  for (const candidate of candidates) {
    const language = builtInLanguage(candidate)
    if (language) return language
  }
  return 'en'
}

/** The script tag's messages file for a built-in language other than English. */
export const messagesFile = (language: UiLanguage) =>
  `referral-widget-messages-${language.toLowerCase()}.js`

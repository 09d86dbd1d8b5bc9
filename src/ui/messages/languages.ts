/** The built-in languages: the script tag loads `referral-widget-ui-<language>.js` for these. */
export const UI_LANGUAGES = ['en', 'de', 'fr', 'es', 'ja', 'ar'] as const

/** The language subtag of a locale: `de` for `de-AT`. */
export const languageOf = (locale: string) => locale.toLowerCase().split(/[-_]/)[0] ?? 'en'

/** The script tag's UI file for a locale: English for languages not built in. */
export function uiFile(locale: string): string {
  const language = languageOf(locale)
  return (UI_LANGUAGES as readonly string[]).includes(language) && language !== 'en'
    ? `referral-widget-ui-${language}.js`
    : 'referral-widget-ui.js'
}

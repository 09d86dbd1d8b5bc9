// @vitest-environment happy-dom
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CATALOG } from './catalog.ts'
import { messagesFile, pickLanguage, UI_LANGUAGES } from './languages.ts'

/** The file a page in `locale` gets its messages from: the UI file itself for English. */
const fileFor = (locale: string, browser?: Parameters<typeof pickLanguage>[1]) => {
  const language = pickLanguage(locale, browser)
  return language === 'en' ? 'referral-widget-ui.js' : messagesFile(language)
}

describe('the script tag’s messages file per language', () => {
  it('lists exactly the built-in languages', () => {
    expect([...UI_LANGUAGES].sort()).toEqual(Object.keys(CATALOG).sort())
  })

  it('are the languages scripts/build.mjs builds messages for', () => {
    const build = readFileSync(join(import.meta.dirname, '../../../scripts/build.mjs'), 'utf8')
    const list = /const LANGUAGES = (\[[^\]]*\])/.exec(build)?.[1] ?? '[]'
    expect(JSON.parse(list.replace(/'/g, '"'))).toEqual([...UI_LANGUAGES])
  })

  it.each([
    ['en-US', 'referral-widget-ui.js'],
    ['de-AT', 'referral-widget-messages-de.js'],
    ['ar', 'referral-widget-messages-ar.js'],
    ['ja_JP', 'referral-widget-messages-ja.js'],
    ['pt-BR', 'referral-widget-messages-pt-br.js'],
    ['pt-PT', 'referral-widget-messages-pt-br.js'],
    ['zh-CN', 'referral-widget-messages-zh-cn.js'],
    ['zh-TW', 'referral-widget-ui.js'],
    ['ko', 'referral-widget-messages-ko.js'],
    ['sv', 'referral-widget-ui.js'],
    ['', 'referral-widget-ui.js'],
  ])('%s → %s', (locale, file) => {
    expect(fileFor(locale, null)).toBe(file)
  })

  describe('negotiation from navigator.languages when no locale was given', () => {
    // No locale given: the widget's locale is navigator.language, the first of the list.
    const browser = (...languages: string[]) => ({ language: languages[0] ?? '', languages })
    it.each([
      [['pt-PT', 'en'], 'pt-BR'],
      [['zh-TW', 'zh-CN'], 'zh-CN'],
      [['zh-TW', 'en'], 'en'],
      [['zh-TW'], 'en'],
      [['zh-HK', 'ja'], 'ja'],
      [['sv-SE', 'nl-NL', 'en'], 'nl'],
      [['gsw', 'fr-CH'], 'fr'],
      [['ko-KR'], 'ko'],
      [['sv'], 'en'],
      [[], 'en'],
    ])('%j → %s', (languages, expected) => {
      expect(pickLanguage(languages[0] ?? 'en', browser(...languages))).toBe(expected)
    })

    it('a locale the host gave is not second-guessed by the browser’s list', () => {
      expect(pickLanguage('sv-SE', browser('de-DE', 'de'))).toBe('en')
      expect(pickLanguage('zh-TW', browser('de-DE'))).toBe('en')
    })

    it('reads navigator.languages itself when not told', () => {
      const languages = Object.getOwnPropertyDescriptor(Navigator.prototype, 'languages')
      const language = Object.getOwnPropertyDescriptor(Navigator.prototype, 'language')
      Object.defineProperty(navigator, 'languages', {
        value: ['sv-SE', 'it-IT'],
        configurable: true,
      })
      Object.defineProperty(navigator, 'language', { value: 'sv-SE', configurable: true })
      try {
        expect(fileFor('sv-SE')).toBe('referral-widget-messages-it.js')
      } finally {
        Reflect.deleteProperty(navigator, 'languages')
        Reflect.deleteProperty(navigator, 'language')
        expect(Object.getOwnPropertyDescriptor(Navigator.prototype, 'languages')).toEqual(languages)
        expect(Object.getOwnPropertyDescriptor(Navigator.prototype, 'language')).toEqual(language)
      }
    })
  })

  const dist = join(import.meta.dirname, '../../../dist')
  it('each built file carries its own language and no other', () => {
    const headlines = Object.fromEntries(
      Object.entries(CATALOG).map(([language, messages]) => [language, messages.emailBody]),
    )
    for (const language of UI_LANGUAGES) {
      const name = language === 'en' ? 'referral-widget-ui.js' : messagesFile(language)
      const file = readFileSync(join(dist, name), 'utf8')
      for (const [other, headline] of Object.entries(headlines)) {
        expect(
          file.includes(JSON.stringify(headline).slice(1, -1)),
          `${language} has ${other}`,
        ).toBe(other === language)
      }
    }
  })
})

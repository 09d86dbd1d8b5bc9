// @vitest-environment happy-dom
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CATALOG } from './catalog.ts'
import { pickLanguage, UI_LANGUAGES, uiFile } from './languages.ts'

describe('the script tag’s UI file per language', () => {
  it('lists exactly the built-in languages', () => {
    expect([...UI_LANGUAGES].sort()).toEqual(Object.keys(CATALOG).sort())
  })

  it('are the languages scripts/build.mjs builds a UI file for', () => {
    const build = readFileSync(join(import.meta.dirname, '../../../scripts/build.mjs'), 'utf8')
    const list = /const LANGUAGES = (\[[^\]]*\])/.exec(build)?.[1] ?? '[]'
    expect(JSON.parse(list.replace(/'/g, '"'))).toEqual([...UI_LANGUAGES])
  })

  it.each([
    ['en-US', 'referral-widget-ui.js'],
    ['de-AT', 'referral-widget-ui-de.js'],
    ['ar', 'referral-widget-ui-ar.js'],
    ['ja_JP', 'referral-widget-ui-ja.js'],
    ['pt-BR', 'referral-widget-ui-pt-br.js'],
    ['pt-PT', 'referral-widget-ui-pt-br.js'],
    ['zh-CN', 'referral-widget-ui-zh-cn.js'],
    ['zh-TW', 'referral-widget-ui.js'],
    ['ko', 'referral-widget-ui-ko.js'],
    ['sv', 'referral-widget-ui.js'],
    ['', 'referral-widget-ui.js'],
  ])('%s → %s', (locale, file) => {
    expect(uiFile(locale, null)).toBe(file)
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
        expect(uiFile('sv-SE')).toBe('referral-widget-ui-it.js')
      } finally {
        Reflect.deleteProperty(navigator, 'languages')
        Reflect.deleteProperty(navigator, 'language')
        expect(Object.getOwnPropertyDescriptor(Navigator.prototype, 'languages')).toEqual(languages)
        expect(Object.getOwnPropertyDescriptor(Navigator.prototype, 'language')).toEqual(language)
      }
    })
  })

  const dist = join(import.meta.dirname, '../../../dist')
  it.runIf(existsSync(join(dist, 'referral-widget-ui-de.js')))(
    'each built file carries its own language and no other',
    () => {
      const headlines = Object.fromEntries(
        Object.entries(CATALOG).map(([language, messages]) => [language, messages.emailBody]),
      )
      for (const language of UI_LANGUAGES) {
        const file = readFileSync(join(dist, uiFile(language)), 'utf8')
        for (const [other, headline] of Object.entries(headlines)) {
          expect(
            file.includes(JSON.stringify(headline).slice(1, -1)),
            `${language} has ${other}`,
          ).toBe(other === language)
        }
      }
    },
  )
})

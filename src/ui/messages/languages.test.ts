import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CATALOG } from './catalog.ts'
import { UI_LANGUAGES, uiFile } from './languages.ts'

describe('the script tag’s UI file per language', () => {
  it('lists exactly the built-in languages', () => {
    expect([...UI_LANGUAGES].sort()).toEqual(Object.keys(CATALOG).sort())
  })

  it.each([
    ['en-US', 'referral-widget-ui.js'],
    ['de-AT', 'referral-widget-ui-de.js'],
    ['ar', 'referral-widget-ui-ar.js'],
    ['ja_JP', 'referral-widget-ui-ja.js'],
    ['pt-BR', 'referral-widget-ui.js'],
    ['', 'referral-widget-ui.js'],
  ])('%s → %s', (locale, file) => {
    expect(uiFile(locale)).toBe(file)
  })

  const dist = join(import.meta.dirname, '../../../dist')
  it.runIf(existsSync(join(dist, 'referral-widget-ui-de.js')))(
    'each built file carries its own language and no other',
    () => {
      const headlines = Object.fromEntries(
        Object.entries(CATALOG).map(([language, messages]) => [language, messages.headline]),
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

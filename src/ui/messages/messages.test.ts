// The built-in messages (en, de, fr, es, ja, ar), the host's overrides, direction and placeholders.
import { describe, expect, it } from 'vitest'
import { BUILT_IN, isRightToLeft, type Messages, message, messagesFor } from './index.ts'

const placeholders = (template: string) => (template.match(/\{\w+\}/g) ?? []).sort()
const LANGUAGES = ['en', 'de', 'fr', 'es', 'ja', 'ar'] as const

describe('messagesFor', () => {
  it.each([
    ['en', 'Copy link'],
    ['en-US', 'Copy link'],
    ['de', 'Link kopieren'],
    ['de-AT', 'Link kopieren'],
    ['fr-CA', 'Copier le lien'],
    ['es-419', 'Copiar enlace'],
    ['ja-JP', 'リンクをコピー'],
    ['ar-EG', 'نسخ الرابط'],
    ['DE-de', 'Link kopieren'],
    ['fr_FR', 'Copier le lien'],
  ])('%s → %j', (locale, copy) => {
    expect(messagesFor(locale).copy).toBe(copy)
  })

  it.each(['pt-BR', 'zz', '', 'x-klingon'])(
    'an unknown language (%j) falls back to English',
    (locale) => {
      expect(messagesFor(locale)).toEqual(messagesFor('en'))
    },
  )

  it('an override replaces that message only', () => {
    const messages = messagesFor('en', { copy: 'Grab it' })
    expect(messages.copy).toBe('Grab it')
    expect(messages.copied).toBe('Link copied')
    expect(messages.headline).toBe('Give {give}, get {get}')
  })

  it('overrides apply on top of the locale', () => {
    const messages = messagesFor('de', { copied: 'Kopiert!' })
    expect(messages.copied).toBe('Kopiert!')
    expect(messages.copy).toBe('Link kopieren')
  })

  it('an empty string is a valid override', () => {
    expect(messagesFor('en', { testMode: '' }).testMode).toBe('')
  })

  it('values that are not strings, and unknown keys, are ignored', () => {
    const overrides = {
      copy: 42,
      copied: null,
      share: { toString: () => 'x' },
      bogus: 'ignored',
    } as unknown as Partial<Messages>
    const messages = messagesFor('en', overrides)
    expect(messages).toEqual(messagesFor('en'))
    expect(Object.keys(messages)).not.toContain('bogus')
  })

  it('a __proto__ key from JSON (data-messages) changes nothing', () => {
    const overrides = JSON.parse(
      '{"__proto__": {"error": "polluted"}, "copy": "Grab it"}',
    ) as Partial<Messages>
    const messages = messagesFor('en', overrides)
    expect(messages.error).toBe('Referral rewards are not available right now.')
    expect(messages.copy).toBe('Grab it')
    expect(({} as Record<string, unknown>).error).toBeUndefined()
  })

  it('overriding does not change the built-in messages for the next widget', () => {
    messagesFor('en', { copy: 'Grab it' })
    expect(messagesFor('en').copy).toBe('Copy link')
  })
})

describe('the built-in catalogues', () => {
  const english = BUILT_IN.en as Messages

  it.each(LANGUAGES)('%s has every message, none empty', (language) => {
    const catalogue = BUILT_IN[language]
    expect(catalogue).toBeDefined()
    expect(Object.keys(catalogue ?? {}).sort()).toEqual(Object.keys(english).sort())
    for (const value of Object.values(catalogue ?? {})) expect(value.trim()).not.toBe('')
  })

  it.each(LANGUAGES)(
    '%s keeps the placeholders of every message (the amounts show)',
    (language) => {
      const catalogue = BUILT_IN[language] as Messages
      for (const key of Object.keys(english) as Array<keyof Messages>) {
        expect([key, placeholders(catalogue[key])]).toEqual([key, placeholders(english[key])])
      }
    },
  )

  it.each(LANGUAGES.filter((language) => language !== 'en'))('%s is translated', (language) => {
    const catalogue = BUILT_IN[language] as Messages
    expect(catalogue.copy).not.toBe(english.copy)
    expect(catalogue.error).not.toBe(english.error)
    expect(catalogue.banner).not.toBe(english.banner)
  })
})

describe('isRightToLeft', () => {
  it.each(['ar', 'ar-EG', 'ar-SA', 'he', 'he-IL', 'fa-IR', 'ur'])(
    '%s is right to left',
    (locale) => {
      expect(isRightToLeft(locale)).toBe(true)
    },
  )

  it.each(['en', 'en-US', 'de', 'fr', 'es', 'ja', 'arn', ''])('%j is left to right', (locale) => {
    expect(isRightToLeft(locale)).toBe(false)
  })
})

describe('message', () => {
  it('fills the placeholders', () => {
    expect(message('Give {give}, get {get}', { give: '$10', get: '€5' })).toBe('Give $10, get €5')
  })

  it('fills a placeholder used twice', () => {
    expect(message('{give} and {give}', { give: '¥500' })).toBe('¥500 and ¥500')
  })

  it('leaves an unknown placeholder as written', () => {
    expect(message('Share via {network}', {})).toBe('Share via {network}')
  })

  it('inserts amounts literally, even with $ patterns in them', () => {
    expect(message('Give {give}', { give: "$& $1 $' $`" })).toBe("Give $& $1 $' $`")
  })

  it('does not fill placeholders inside inserted values', () => {
    expect(message('{give} / {get}', { give: '{get}', get: 'X' })).toBe('{get} / X')
  })

  it('inserts markup as plain characters', () => {
    expect(message('Hi {give}', { give: '<b>x</b>' })).toBe('Hi <b>x</b>')
  })
})

// The built-in messages (twelve languages), plurals, the host's overrides, direction and placeholders.
import { describe, expect, it } from 'vitest'
import {
  BUILT_IN,
  isRightToLeft,
  type MessageOverrides,
  type Messages,
  message,
  messagesFor,
  type PluralMessage,
  plural,
} from './index.ts'
import { UI_LANGUAGES } from './languages.ts'

const placeholders = (template: string) => (template.match(/\{\w+\}/g) ?? []).sort()
const LANGUAGES = UI_LANGUAGES
/** Each share text that says what earns the reward, and its purchase campaign's text. */
const PURCHASE_SHARES = [
  ['emailBody', 'emailBodyPurchase'],
  ['xText', 'xTextPurchase'],
  ['whatsappText', 'whatsappTextPurchase'],
  ['linkedinText', 'linkedinTextPurchase'],
  ['nativeText', 'nativeTextPurchase'],
] as const
const forms = (value: string | PluralMessage) =>
  typeof value === 'string' ? { other: value } : (value as Record<string, string>)

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
    ['pt-BR', 'Copiar link'],
    ['pt-PT', 'Copiar link'],
    ['pt', 'Copiar link'],
    ['it-CH', 'Copia link'],
    ['nl-BE', 'Link kopiëren'],
    ['pl-PL', 'Kopiuj link'],
    ['zh-CN', '复制链接'],
    ['zh-Hans-SG', '复制链接'],
    ['zh', '复制链接'],
    ['ko-KR', '링크 복사'],
  ])('%s → %j', (locale, copy) => {
    expect(messagesFor(locale).copy).toBe(copy)
  })

  it.each(['zh-TW', 'zh-Hant', 'zh-HK', 'sv-SE', 'zz', '', 'x-klingon'])(
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
    } as unknown as MessageOverrides
    const messages = messagesFor('en', overrides)
    expect(messages).toEqual(messagesFor('en'))
    expect(Object.keys(messages)).not.toContain('bogus')
  })

  it('a __proto__ key from JSON (data-messages) changes nothing', () => {
    const overrides = JSON.parse(
      '{"__proto__": {"error": "polluted"}, "copy": "Grab it"}',
    ) as MessageOverrides
    const messages = messagesFor('en', overrides)
    expect(messages.error).toBe('Referral rewards are not available right now.')
    expect(messages.copy).toBe('Grab it')
    expect(({} as Record<string, unknown>).error).toBeUndefined()
  })

  it('a purchase share text is overridden on its own, beside its signup text', () => {
    const messages = messagesFor('fr', {
      xText: 'Inscris-toi : {url}',
      xTextPurchase: 'Achète : {url}',
    })
    expect(messages.xText).toBe('Inscris-toi : {url}')
    expect(messages.xTextPurchase).toBe('Achète : {url}')
    expect(messagesFor('fr', { xText: 'Inscris-toi : {url}' }).xTextPurchase).toBe(
      (BUILT_IN.fr as Messages).xTextPurchase,
    )
  })

  it('overriding does not change the built-in messages for the next widget', () => {
    messagesFor('en', { copy: 'Grab it' })
    expect(messagesFor('en').copy).toBe('Copy link')
  })
})

describe('the built-in catalogues', () => {
  const english = BUILT_IN.en as Messages
  const keys = Object.keys(english).sort()

  it('are the twelve languages', () => {
    expect(Object.keys(BUILT_IN).sort()).toEqual([...LANGUAGES].sort())
    expect(LANGUAGES).toHaveLength(12)
  })

  it.each(LANGUAGES)('%s has every message, none empty', (language) => {
    const catalogue = BUILT_IN[language]
    expect(catalogue).toBeDefined()
    const missing = keys.filter((key) => !(catalogue && Object.hasOwn(catalogue, key)))
    expect(missing, `${language} lacks ${missing.join(', ')}`).toEqual([])
    expect(Object.keys(catalogue ?? {}).sort()).toEqual(keys)
    for (const value of Object.values(catalogue ?? {}))
      for (const form of Object.values(forms(value))) expect(form.trim()).not.toBe('')
  })

  it.each(LANGUAGES)(
    '%s keeps the placeholders of every message (the amounts, the link and the count show)',
    (language) => {
      const catalogue = BUILT_IN[language] as Messages
      for (const key of keys as Array<keyof Messages>) {
        const english_ = forms(english[key]).other ?? ''
        const own = forms(catalogue[key])
        expect([key, placeholders(own.other ?? '')]).toEqual([key, placeholders(english_)])
        // A singular or dual form may say the number in words ("one action"), nothing more.
        for (const form of Object.values(own))
          for (const name of placeholders(form)) expect(placeholders(english_)).toContain(name)
      }
    },
  )

  it.each(LANGUAGES)('%s has a form for each plural category of its language', (language) => {
    const catalogue = BUILT_IN[language] as Messages
    const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories
    for (const key of ['offline', 'rateLimited'] as const) {
      expect([key, Object.keys(catalogue[key]).sort()]).toEqual([key, [...categories].sort()])
    }
  })

  it.each(LANGUAGES.filter((language) => language !== 'en'))('%s is translated', (language) => {
    const catalogue = BUILT_IN[language] as Messages
    const translated = [
      'copy',
      'error',
      'banner',
      'emailBody',
      'qrTitle',
      'referrerRewardPurchase',
      'referredRewardPurchase',
      'bannerPurchase',
      'codeLabel',
      'copyCode',
      'codeCopied',
      'codeCopyFailed',
      ...PURCHASE_SHARES.map(([, purchase]) => purchase),
    ] as const
    for (const key of translated) expect([key, catalogue[key]]).not.toEqual([key, english[key]])
    expect(catalogue.offline.other).not.toBe(english.offline.other)
    expect(catalogue.summaryBought.other).not.toBe(english.summaryBought.other)
  })

  it('every channel has its own English text', () => {
    const channels = [english.emailBody, english.xText, english.whatsappText, english.linkedinText]
    expect(new Set(channels).size).toBe(channels.length)
  })

  it('every channel has its own English text in a purchase campaign too', () => {
    const channels = PURCHASE_SHARES.map(([, purchase]) => english[purchase])
    expect(new Set(channels).size).toBe(channels.length)
  })

  it.each(LANGUAGES)(
    '%s: each share text has a purchase text of its own, with the same placeholders',
    (language) => {
      const catalogue = BUILT_IN[language] as Messages
      for (const [signup, purchase] of PURCHASE_SHARES) {
        expect([purchase, catalogue[purchase]]).not.toEqual([purchase, catalogue[signup]])
        expect([purchase, placeholders(catalogue[purchase])]).toEqual([
          purchase,
          placeholders(catalogue[signup]),
        ])
      }
    },
  )
})

describe('plural', () => {
  it.each([
    ['en', 1, 'You are offline. 1 referral action will be sent when you are back.'],
    ['en', 2, 'You are offline. 2 referral actions will be sent when you are back.'],
    ['en', 1200, 'You are offline. 1,200 referral actions will be sent when you are back.'],
    ['pl', 1, 'Jesteś offline. 1 działanie zostanie wysłane po powrocie do sieci.'],
    ['pl', 3, 'Jesteś offline. 3 działania zostaną wysłane po powrocie do sieci.'],
    ['pl', 5, 'Jesteś offline. 5 działań zostanie wysłanych po powrocie do sieci.'],
    ['pl', 22, 'Jesteś offline. 22 działania zostaną wysłane po powrocie do sieci.'],
    ['ar', 1, 'أنت غير متصل. سيتم إرسال عملية واحدة عند عودتك.'],
    ['ar', 2, 'أنت غير متصل. سيتم إرسال عمليتين عند عودتك.'],
    ['ar', 3, 'أنت غير متصل. سيتم إرسال 3 عمليات عند عودتك.'],
    ['ja', 1, 'オフラインです。1件の操作はオンラインに戻ると送信されます。'],
    ['fr', 2, 'Vous êtes hors ligne. 2 actions seront envoyées à votre retour.'],
  ] as const)('%s, %d', (language, count, expected) => {
    const messages = BUILT_IN[language] as Messages
    expect(plural(messages.offline, count, language)).toBe(expected)
  })

  it('falls back to the other form when the category is missing (a host override)', () => {
    expect(plural({ other: '{count} waiting' }, 1, 'en')).toBe('1 waiting')
  })

  it('a host may replace a counted message by one string or by its forms', () => {
    expect(messagesFor('en', { offline: 'Offline: {count}' }).offline).toEqual({
      other: 'Offline: {count}',
    })
    const own = { one: 'One waits', other: '{count} wait' }
    expect(messagesFor('en', { offline: own }).offline).toEqual(own)
    const broken = { one: 'no other form' } as unknown as PluralMessage
    expect(messagesFor('en', { offline: broken }).offline).toEqual(messagesFor('en').offline)
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

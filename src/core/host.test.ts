import { describe, expect, it } from 'vitest'
import { browserLocale } from './host.ts'

describe('browserLocale', () => {
  it.each([
    ['en-US', 'en-US'],
    ['en-US@posix', 'en-US'],
    ['en_US.UTF-8', 'en-US'],
    ['de_DE@euro', 'de-DE'],
    ['pt-br', 'pt-BR'],
  ])('%j is read as %j', (reported, locale) => {
    expect(browserLocale(reported)).toBe(locale)
  })

  it.each([[undefined], [''], ['not a locale!'], ['C']])(
    '%j gives none (the default applies)',
    (reported) => {
      expect(browserLocale(reported)).toBeUndefined()
    },
  )

  it('a POSIX-reported language still formats amounts in its currency style', () => {
    const locale = browserLocale('en-US@posix') ?? 'en'
    expect(new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD' }).format(10)).toBe(
      '$10.00',
    )
  })
})

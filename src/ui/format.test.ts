// Amounts as a reader of each locale expects them, in the campaign's currency (Intl).
import { describe, expect, it } from 'vitest'
import type { Reward } from '../../demo/service/schemas.ts'
import { formatReward } from './format.ts'

const reward = (amount: number, currency: string): Reward => ({ type: 'credit', amount, currency })
const NBSP = '\u00a0'
const NNBSP = '\u202f'

describe('formatReward', () => {
  it.each([
    ['en-US', 10, 'USD', '$10'],
    ['en-US', 10.5, 'USD', '$10.50'],
    ['en-US', 0.99, 'USD', '$0.99'],
    ['en-US', 1234567, 'USD', '$1,234,567'],
    ['en-GB', 10, 'USD', 'US$10'],
    ['en-GB', 10, 'GBP', '£10'],
    ['de-DE', 15.5, 'EUR', `15,50${NBSP}€`],
    ['de-DE', 1000, 'EUR', `1.000${NBSP}€`],
    ['fr-FR', 1000, 'EUR', `1${NNBSP}000${NBSP}€`],
    ['es-ES', 20, 'EUR', `20${NBSP}€`],
    ['nl-NL', 1234.5, 'EUR', `€${NBSP}1.234,50`],
    ['de-CH', 10, 'CHF', `CHF${NBSP}10`],
  ])('%s %d %s → %j', (locale, amount, currency, expected) => {
    expect(formatReward(reward(amount, currency), locale)).toBe(expected)
  })

  describe('a currency with no minor unit (JPY)', () => {
    it('Japanese: full-width yen, grouping, no decimals', () => {
      expect(formatReward(reward(1000, 'JPY'), 'ja-JP')).toBe('￥1,000')
    })

    it('English: no decimals', () => {
      expect(formatReward(reward(500, 'JPY'), 'en-US')).toBe('¥500')
    })

    it('a fractional yen amount is rounded to whole yen, never shown with decimals', () => {
      expect(formatReward(reward(1499.6, 'JPY'), 'ja-JP')).toBe('￥1,500')
    })

    it('KRW likewise', () => {
      expect(formatReward(reward(5000, 'KRW'), 'ko-KR')).toBe('₩5,000')
    })
  })

  it('a currency with three minor units keeps them for a fractional amount', () => {
    expect(formatReward(reward(1.5, 'KWD'), 'en-US')).toBe(`KWD${NBSP}1.500`)
  })

  it('a whole amount never shows ".00"', () => {
    for (const [locale, currency] of [
      ['en-US', 'USD'],
      ['de-DE', 'EUR'],
      ['en-GB', 'GBP'],
    ] as const) {
      expect(formatReward(reward(25, currency), locale)).not.toMatch(/[.,]00/)
    }
  })

  it('Arabic (Egypt) uses Arabic-Indic digits', () => {
    expect(formatReward(reward(10, 'USD'), 'ar-EG')).toContain('١٠')
  })

  it('Arabic keeps the amount and the currency', () => {
    const text = formatReward(reward(10, 'USD'), 'ar')
    expect(text).toContain('US$')
    expect(text).toMatch(/10|١٠/)
  })

  it('a locale Intl cannot use still shows the amount and the currency', () => {
    expect(formatReward(reward(10, 'USD'), 'not a locale!')).toBe('10 USD')
  })
})

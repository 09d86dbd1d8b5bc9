// The providers' minor units as the major unit the service records, by the currency's exponent.
import { describe, expect, it } from 'vitest'
import { exponentOf, toMajorUnits } from '../../../src/server/payments/currency.ts'

describe('toMajorUnits', () => {
  it.each([
    [1999, 'USD', 19.99],
    [5, 'EUR', 0.05],
    [4900, 'JPY', 4900],
    [15000, 'KRW', 15000],
    [5125, 'KWD', 5.125],
    [1000, 'TND', 1],
    // Stripe writes ISK, HUF and TWD with two decimals, whole amounts as multiples of 100.
    [50000, 'ISK', 500],
    [123456, 'HUF', 1234.56],
  ])('%i %s is %d', (minor, currency, major) => {
    expect(toMajorUnits(minor, currency)).toBe(major)
  })

  it('every zero- and three-decimal currency of Stripe’s list', () => {
    const zero = 'BIF CLP DJF GNF JPY KMF KRW MGA PYG RWF UGX VND VUV XAF XOF XPF'.split(' ')
    expect(zero.map(exponentOf)).toEqual(zero.map(() => 0))
    const three = 'BHD JOD KWD OMR TND'.split(' ')
    expect(three.map(exponentOf)).toEqual(three.map(() => 3))
  })
})

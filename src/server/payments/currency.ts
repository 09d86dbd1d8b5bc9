// Amounts in webhooks are in the currency's minor unit (cents, or yen where there is none); the
// referral service records the major unit, as the site shows it. One table for the three
// providers: Stripe's list of zero- and three-decimal currencies (Paddle too counts JPY and KRW in
// whole units; Lemon Squeezy documents its amounts in cents). ISK, HUF and TWD stay two-decimal:
// Stripe keeps them so in its API, with whole amounts written as multiples of 100.

/** No minor unit: an amount of 500 is 500. */
const ZERO_DECIMAL = new Set([
  'BIF',
  'CLP',
  'DJF',
  'GNF',
  'JPY',
  'KMF',
  'KRW',
  'MGA',
  'PYG',
  'RWF',
  'UGX',
  'VND',
  'VUV',
  'XAF',
  'XOF',
  'XPF',
])

/** Thousandths: an amount of 5125 is 5.125. */
const THREE_DECIMAL = new Set(['BHD', 'JOD', 'KWD', 'OMR', 'TND'])

/** The number of decimals of an upper-case ISO 4217 code, as the providers count them. */
export function exponentOf(currency: string): number {
  if (ZERO_DECIMAL.has(currency)) return 0
  if (THREE_DECIMAL.has(currency)) return 3
  return 2
}

/**
 * A provider's amount in minor units as the major unit the service records: 1999 USD is 19.99,
 * 500 JPY is 500, 5125 KWD is 5.125. `currency` upper-case.
 */
export function toMajorUnits(minor: number, currency: string): number {
  // Division by a power of ten gives the nearest double to the decimal (19.99, not 19.990000001).
  return minor / 10 ** exponentOf(currency)
}

// Reading the parts of a provider's event that are used, with the widget's own small parsers
// (src/shared/parse.ts): a body whose signature holds but whose shape does not is `body_invalid`.

import { nullable, oneOf, optional, type Parser, parse, string } from '../../shared/parse.ts'

/** Refuses whatever it is given: the parsers' own way to say "not of this shape". */
const refuse = (value: unknown): never => oneOf<never>([])(value)

/** A field the provider may leave out or set to null; read as null then. */
export const maybe =
  <T>(parser: Parser<T>): Parser<T | null> =>
  (value) =>
    value === undefined ? null : nullable(parser)(value)

/** Any value, left for a later reader (a reference is judged by readCheckoutReference). */
export const anything: Parser<unknown> = (value) => value

/** An id, or the expanded object that carries it (Stripe sends ids unless asked to expand). */
export const idOf: Parser<string> = (value) =>
  typeof value === 'object' && value !== null
    ? string()((value as { id?: unknown }).id)
    : string()(value)

/** A whole number of minor units: a number (Stripe, Lemon Squeezy) or digits (Paddle). */
export const minorUnits: Parser<number> = (value) => {
  const minor = typeof value === 'string' && /^-?\d{1,15}$/.test(value) ? Number(value) : value
  return typeof minor === 'number' && Number.isSafeInteger(minor) ? minor : refuse(value)
}

/** An ISO 4217 code in any case, as providers write it (`usd`, `USD`). */
export const currencyCode = string(/^[A-Za-z]{3}$/)

export { optional, parse }

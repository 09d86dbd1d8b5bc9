// Tiny parsers for what the widget reads from the network and from storage. The browser
// bundles cannot afford a schema library inside the 7 KB budget; the service keeps its zod
// schemas (schemas.ts), and test/wire-parity.test.ts holds both to the same verdicts.

/** A parser returns the value (a cleaned copy for objects) or throws INVALID. */
export type Parser<T> = (value: unknown) => T

const INVALID = Symbol('invalid')

const check = <T>(ok: boolean, value: T): T => {
  if (!ok) throw INVALID
  return value
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

export const string =
  (pattern?: RegExp): Parser<string> =>
  (value) =>
    check(typeof value === 'string' && (!pattern || pattern.test(value)), value as string)

export const number: Parser<number> = (value) =>
  check(typeof value === 'number' && Number.isFinite(value), value as number)

export const boolean: Parser<boolean> = (value) =>
  check(typeof value === 'boolean', value as boolean)

export const literal =
  <const T>(expected: T): Parser<T> =>
  (value) =>
    check(value === expected, expected)

export const oneOf =
  <const T extends string>(options: readonly T[]): Parser<T> =>
  (value) =>
    check(options.includes(value as T), value as T)

export const optional =
  <T>(parser: Parser<T>): Parser<T | undefined> =>
  (value) =>
    value === undefined ? undefined : parser(value)

export const nullable =
  <T>(parser: Parser<T>): Parser<T | null> =>
  (value) =>
    value === null ? null : parser(value)

export const array =
  <T>(parser: Parser<T>): Parser<T[]> =>
  (value) =>
    check(Array.isArray(value), value as unknown[]).map(parser)

type Shape = Record<string, Parser<unknown>>
type Required<S extends Shape> = {
  [K in keyof S as undefined extends ReturnType<S[K]> ? never : K]: ReturnType<S[K]>
}
type Optional<S extends Shape> = {
  [K in keyof S as undefined extends ReturnType<S[K]> ? K : never]?: Exclude<
    ReturnType<S[K]>,
    undefined
  >
}
export type Parsed<S extends Shape> = Required<S> & Optional<S>

/**
 * An object with these fields; other fields are left out of the result. Own properties only, on
 * both sides: whatever the page added to Object.prototype is neither read as a field nor taken for
 * a parser, and a field left out reads as undefined on the result (it has no prototype).
 */
export const object =
  <S extends Shape>(shape: S): Parser<Parsed<S>> =>
  (value) => {
    const input = check(isRecord(value), value as Record<string, unknown>)
    const output: Record<string, unknown> = Object.create(null)
    for (const key of Object.keys(shape)) {
      const parsed = (shape[key] as Parser<unknown>)(
        Object.hasOwn(input, key) ? input[key] : undefined,
      )
      if (parsed !== undefined) output[key] = parsed
    }
    return output as Parsed<S>
  }

/** The parsed value, or null when it does not fit. */
export function parse<T>(parser: Parser<T>, value: unknown): T | null {
  try {
    return parser(value)
  } catch (error) {
    if (error === INVALID) return null
    throw error
  }
}

// For the properties of the script tag's attributes (src/embed/attributes*.fuzz.test.ts): an
// independent model of what each attribute accepts, generators of any text a page can put in
// them, and readAttributes' answer over a script element of such attributes.
import fc from 'fast-check'
import { CAMPAIGN_ID_PATTERN, REFERRER_ID_PATTERN } from '../../src/api/wire.ts'
import type { CheckedOption } from '../../src/core/options.ts'
import { ConfigError } from '../../src/shared/errors.ts'
import { readAttributes } from './script-attributes.ts'

// --- an independent model of what each attribute accepts ------------------------------------

export const httpHref = (value: string) => {
  try {
    const url = new URL(value)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined
  } catch {
    return undefined
  }
}
/** data-api as the widget takes it: a path on the page's own site as written, or an absolute http(s) URL. */
export const apiOf = (value: string) =>
  /^\/(?![/\\])[^\s\\]*$/.test(value) ? value : httpHref(value)?.href
const flag = (value: string) =>
  value === 'true' || value === '' ? true : value === 'false' ? false : undefined

interface Attribute {
  option: CheckedOption
  /** The option's value for this attribute text, or undefined when it is refused. */
  accept: (value: string) => unknown
  /** The default, left out of the options when given explicitly. */
  omitted?: unknown
  /** Texts it accepts, to mix in with anything else. */
  valid: fc.Arbitrary<string>
}

const paramName = fc.stringMatching(/^[A-Za-z0-9_.-]{1,64}$/)
export const space = fc.constantFrom('', ' ', '  ', '\t', '\n', '\u00a0')

export const ATTRIBUTES: Record<string, Attribute> = {
  campaign: {
    option: 'campaignId',
    accept: (value) => (CAMPAIGN_ID_PATTERN.test(value) ? value : undefined),
    valid: fc.stringMatching(CAMPAIGN_ID_PATTERN),
  },
  'user-id': {
    option: 'userId',
    accept: (value) => (REFERRER_ID_PATTERN.test(value) ? value : undefined),
    valid: fc.stringMatching(REFERRER_ID_PATTERN),
  },
  'ref-param': {
    option: 'refParam',
    accept: (value) => {
      const names = value.split(',').map((name) => name.trim())
      return names.every((name) => /^[A-Za-z0-9_.-]{1,64}$/.test(name)) ? names : undefined
    },
    valid: fc
      .array(fc.tuple(space, paramName, space), { minLength: 1, maxLength: 4 })
      .map((names) => names.map((parts) => parts.join('')).join(',')),
  },
  'landing-url': {
    option: 'landingUrl',
    accept: (value) => httpHref(value)?.href,
    valid: fc.webUrl({ withQueryParameters: true, withFragments: true }),
  },
  locale: {
    option: 'locale',
    accept: (value) => {
      try {
        return Intl.getCanonicalLocales(value)[0]
      } catch {
        return undefined
      }
    },
    valid: fc.constantFrom('en', 'en-US', 'EN-us', 'de-DE', 'ja', 'ar-EG', 'zh-Hant-TW', 'fr-CA'),
  },
  theme: {
    option: 'theme',
    accept: (value) => (['light', 'dark', 'auto'].includes(value) ? value : undefined),
    valid: fc.constantFrom('light', 'dark', 'auto', 'Dark', ' light'),
  },
  'clean-url': {
    option: 'cleanUrl',
    accept: flag,
    omitted: true,
    valid: fc.constantFrom('true', 'false', '', 'TRUE', '0'),
  },
  'honor-gpc': {
    option: 'honorGpc',
    accept: flag,
    omitted: false,
    valid: fc.constantFrom('true', 'false', '', 'yes'),
  },
  outbound: {
    option: 'outbound',
    accept: (value) => {
      const hosts = value
        .split(',')
        .map((entry) => entry.trim().toLowerCase())
        .filter((entry) => entry !== '')
      const name = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/
      const host = (entry: string) => entry.replace(/^\*\./, '')
      return hosts.every((entry) => host(entry).length <= 253 && name.test(host(entry)))
        ? hosts
        : undefined
    },
    valid: fc
      .array(
        fc.tuple(space, fc.constantFrom('', '*.'), fc.domain(), space).map((p) => p.join('')),
        { minLength: 0, maxLength: 4 },
      )
      .map((hosts) => hosts.join(',')),
  },
  consent: {
    option: 'consent',
    accept: (value) => (value === 'required' ? value : undefined),
    valid: fc.constantFrom('required', 'Required', 'granted'),
  },
}

// --- generators -------------------------------------------------------------------------------

export const KEY = /^pk_(test|live)_[A-Za-z0-9]{4,64}$/
export const SECRET = /^sk_(test|live)_[A-Za-z0-9]{4,64}$/

/** Text that is hostile to the problem sentence: quotes, escapes, control characters, halves of pairs. */
const escapeHeavy = fc.string({
  unit: fc.constantFrom('"', '\\', '\u0000', '\u0001', '\n', '\u2028', '\ud83d', '\ude00', 'é'),
  minLength: 1,
  maxLength: 200,
})

/** Any text a page may put in an attribute. */
const anyText = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 100 }),
  fc.string({ unit: 'binary', maxLength: 100 }),
  escapeHeavy,
  fc.constantFrom(
    '',
    ' ',
    '<script>alert(1)</script>',
    '"><img src=x onerror=alert(1)>',
    'javascript:alert(1)',
    'data:text/html,<b>x</b>',
    '__proto__',
    'constructor',
    'null',
    'undefined',
  ),
  // Huge values, cheaply: a short piece repeated.
  fc
    .tuple(fc.string({ minLength: 1, maxLength: 4 }), fc.integer({ min: 1000, max: 30_000 }))
    .map(([piece, times]) => piece.repeat(times)),
  fc.stringMatching(SECRET),
)

const keyText = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(space, fc.stringMatching(KEY), space).map((p) => p.join('')) },
  {
    weight: 2,
    arbitrary: fc.tuple(space, fc.stringMatching(SECRET), space).map((p) => p.join('')),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom('pk_test_abc', 'pk_prod_acme', 'PK_test_acme', 'pk_test_acme!'),
  },
  { weight: 1, arbitrary: anyText },
)

const apiText = fc.oneof(
  fc.webUrl(),
  fc.constantFrom('http://localhost:8787', 'ftp://x.test/'),
  anyText,
)
const messagesText = fc.oneof(
  fc.json(),
  fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.jsonValue())).map((m) => JSON.stringify(m)),
  fc.constantFrom(
    '{"__proto__":{"polluted":"yes"},"copy":"x"}',
    '{"constructor":{"prototype":{"polluted":"yes"}}}',
    '{"copy":"<img src=x onerror=alert(1)>"}',
  ),
  anyText,
)
export const scriptSrc = fc.option(
  fc.oneof(
    fc.webUrl(),
    fc.constantFrom('https://cdn.test/referral-widget.js', 'file:///C:/w.js', 'javascript:x'),
    anyText,
  ),
  { nil: undefined },
)

/** Some attribute present or absent; present ones are valid, nearly valid or anything. */
const maybe = (valid: fc.Arbitrary<string>) =>
  fc.option(fc.oneof(valid, anyText), { nil: undefined, freq: 3 })

export const attributeMap = fc.record(
  {
    'data-key': fc.option(keyText, { nil: undefined, freq: 10 }),
    'data-api': maybe(apiText),
    'data-messages': maybe(messagesText),
    ...Object.fromEntries(
      Object.entries(ATTRIBUTES).map(([name, { valid }]) => [`data-${name}`, maybe(valid)]),
    ),
  },
  { noNullPrototype: true },
) as fc.Arbitrary<Record<string, string | undefined>>

/** Attributes the widget starts with: a good key, and a service from data-api or the script's URL. */
export const startingMap = fc
  .tuple(attributeMap, fc.tuple(space, fc.stringMatching(KEY), space))
  .map(
    ([attributes, key]): Record<string, string | undefined> => ({
      ...attributes,
      'data-key': key.join(''),
    }),
  )
export const usableSrc = fc.oneof(fc.webUrl(), fc.constant('https://cdn.test/referral-widget.js'))

const element = (attributes: Record<string, string | undefined>) => ({
  getAttribute: (name: string) =>
    Object.hasOwn(attributes, name) ? (attributes[name] ?? null) : null,
})

/** readAttributes' answer, or the ConfigError it threw (anything else is thrown on). */
export function outcome(attributes: Record<string, string | undefined>, src: string | undefined) {
  try {
    return readAttributes(element(attributes), src)
  } catch (error) {
    if (error instanceof ConfigError) return error
    throw error
  }
}

/** The quoted value a problem sentence starts with, as the text it quotes. */
export function quoted(problem: string): string | undefined {
  const match = /^data-[a-z-]+=("(?:[^"\\]|\\.)*")/.exec(problem)
  return match?.[1] === undefined ? undefined : (JSON.parse(match[1]) as string)
}

// Properties of the script tag's attributes (WIDGET.md section 1) for any text a page can put in
// them: only a bad key or no service stops the widget, a secret key never gets through, each
// refused attribute is one short sentence and its default, and whatever is accepted starts a
// widget.
import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import { fuzzOptions, fuzzTimeout } from '../../test/support/fuzz.ts'
import { readAttributes } from '../../test/support/script-attributes.ts'
import { CAMPAIGN_ID_PATTERN, REFERRER_ID_PATTERN } from '../api/wire.ts'
import { createReferral } from '../core/create-referral.ts'
import { type CheckedOption, checkOption } from '../core/options.ts'
import { createMemoryStorage } from '../queue/storage.ts'
import { ConfigError } from '../shared/errors.ts'
import type { Timers } from '../shared/timers.ts'

const runs = fuzzOptions
// A longer hunt (FUZZ_RUNS) gets the time it needs.
vi.setConfig({ testTimeout: fuzzTimeout(50) })
const CODE = 'ABCDEFGH'
const START = Date.UTC(2026, 0, 15, 12)

// --- an independent model of what each attribute accepts ------------------------------------

const httpHref = (value: string) => {
  try {
    const url = new URL(value)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined
  } catch {
    return undefined
  }
}
/** data-api as the widget takes it: a path on the page's own site as written, or an absolute http(s) URL. */
const apiOf = (value: string) =>
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
const space = fc.constantFrom('', ' ', '  ', '\t', '\n', '\u00a0')

const ATTRIBUTES: Record<string, Attribute> = {
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

const KEY = /^pk_(test|live)_[A-Za-z0-9]{4,64}$/
const SECRET = /^sk_(test|live)_[A-Za-z0-9]{4,64}$/

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
const scriptSrc = fc.option(
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

const attributeMap = fc.record(
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
const startingMap = fc.tuple(attributeMap, fc.tuple(space, fc.stringMatching(KEY), space)).map(
  ([attributes, key]): Record<string, string | undefined> => ({
    ...attributes,
    'data-key': key.join(''),
  }),
)
const usableSrc = fc.oneof(fc.webUrl(), fc.constant('https://cdn.test/referral-widget.js'))

const element = (attributes: Record<string, string | undefined>) => ({
  getAttribute: (name: string) =>
    Object.hasOwn(attributes, name) ? (attributes[name] ?? null) : null,
})

/** readAttributes' answer, or the ConfigError it threw (anything else is thrown on). */
function outcome(attributes: Record<string, string | undefined>, src: string | undefined) {
  try {
    return readAttributes(element(attributes), src)
  } catch (error) {
    if (error instanceof ConfigError) return error
    throw error
  }
}

/** The quoted value a problem sentence starts with, as the text it quotes. */
function quoted(problem: string): string | undefined {
  const match = /^data-[a-z-]+=("(?:[^"\\]|\\.)*")/.exec(problem)
  return match?.[1] === undefined ? undefined : (JSON.parse(match[1]) as string)
}

describe('readAttributes', () => {
  it('stops only for a bad key or no service, with a ConfigError naming the attribute', () => {
    fc.assert(
      fc.property(attributeMap, scriptSrc, (attributes, src) => {
        const result = outcome(attributes, src)
        const key = attributes['data-key']
        const keyOk = key !== undefined && KEY.test(key.trim())
        const api = attributes['data-api']
        const serviceOk =
          (api !== undefined && apiOf(api) !== undefined) ||
          (src !== undefined && src !== '' && httpHref(src) !== undefined)
        if (!keyOk) {
          expect(result).toBeInstanceOf(ConfigError)
          expect((result as ConfigError).option).toBe('data-key')
        } else if (!serviceOk) {
          expect(result).toBeInstanceOf(ConfigError)
          expect((result as ConfigError).option).toBe('data-api')
        } else {
          expect(result).not.toBeInstanceOf(ConfigError)
        }
      }),
      runs,
    )
  })

  it('never lets a secret key through, nor repeats it in the message', () => {
    fc.assert(
      fc.property(
        attributeMap,
        scriptSrc,
        fc.tuple(space, fc.stringMatching(SECRET), space),
        (attributes, src, [before, secret, after]) => {
          const result = outcome({ ...attributes, 'data-key': before + secret + after }, src)
          expect(result).toBeInstanceOf(ConfigError)
          const error = result as ConfigError
          expect(error.option).toBe('data-key')
          expect(error.message).toMatch(/Secret keys must never reach a browser/)
          expect(error.message).not.toContain(secret.slice(3))
        },
      ),
      runs,
    )
  })

  it('reads each attribute as its option, or refuses it with one sentence and leaves the default', () => {
    fc.assert(
      fc.property(startingMap, usableSrc, (attributes, src) => {
        const result = outcome(attributes, src)
        expect(result).not.toBeInstanceOf(ConfigError)
        const { options, problems } = result as Exclude<typeof result, ConfigError>
        expect(options.publicKey).toMatch(KEY)
        expect(options.publicKey).toBe(attributes['data-key']?.trim())

        const refused: string[] = []
        const api = attributes['data-api']
        if (api !== undefined && apiOf(api) === undefined) refused.push('data-api')
        const expected: Record<string, unknown> = {
          publicKey: options.publicKey,
          apiBase: (api === undefined ? undefined : apiOf(api)) ?? httpHref(src)?.origin,
        }
        for (const [name, { option, accept, omitted }] of Object.entries(ATTRIBUTES)) {
          const text = attributes[`data-${name}`]
          if (text === undefined) continue
          const value = accept(text)
          if (value === undefined) refused.push(`data-${name}`)
          else if (value !== omitted) expected[option] = value
        }
        const messages = attributes['data-messages']
        if (messages !== undefined) {
          let parsed: unknown
          try {
            parsed = JSON.parse(messages)
          } catch {}
          if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
            refused.push('data-messages')
        }

        expect(options).toEqual(expected)
        expect(problems.map((problem) => problem.split('=')[0]).sort()).toEqual(refused.sort())
      }),
      runs,
    )
  })

  it('keeps only the message strings (and plural forms), and a hostile object pollutes nothing', () => {
    fc.assert(
      fc.property(attributeMap, (attributes) => {
        const result = outcome(
          { ...attributes, 'data-key': 'pk_test_acme' },
          'https://cdn.test/w.js',
        )
        expect(result).not.toBeInstanceOf(ConfigError)
        const { messages } = result as Exclude<typeof result, ConfigError>
        expect(({} as Record<string, unknown>).polluted).toBeUndefined()
        if (messages === undefined) return
        expect(Object.getPrototypeOf(messages)).toBe(Object.prototype)
        // Strings, or a counted message's plural forms (strings too).
        for (const value of Object.values(messages)) {
          const forms = typeof value === 'string' ? [value] : Object.values(value ?? {})
          for (const form of forms) expect(typeof form).toBe('string')
        }
      }),
      runs,
    )
  })

  it('each problem names its attribute and quotes at most 80 characters of the value', () => {
    fc.assert(
      fc.property(startingMap, usableSrc, (attributes, src) => {
        const result = outcome(attributes, src)
        expect(result).not.toBeInstanceOf(ConfigError)
        for (const problem of (result as Exclude<typeof result, ConfigError>).problems) {
          const name = problem.split('=')[0] ?? ''
          expect(Object.keys(attributes)).toContain(name)
          const value = attributes[name] ?? ''
          const text = quoted(problem)
          expect(text).toBeDefined()
          // Cut (to 80 characters once escaped) and marked with an ellipsis when longer.
          const shown = text !== value ? text?.replace(/…$/, '') : text
          expect(shown?.length).toBeLessThanOrEqual(80)
          expect(value.startsWith(shown ?? '\u0000')).toBe(true)
          // What follows the value is one sentence of bounded length, whatever the value.
          expect(problem.length - JSON.stringify(text).length).toBeLessThan(130)
        }
      }),
      runs,
    )
  })

  // The quoted value is bounded after escaping (JSON writes a control character as 6
  // characters): 81 × "\u0001" in data-ref-param once gave a sentence of 592.
  it('each problem sentence is under 250 characters', () => {
    fc.assert(
      fc.property(startingMap, usableSrc, (attributes, src) => {
        const result = outcome(attributes, src)
        expect(result).not.toBeInstanceOf(ConfigError)
        for (const problem of (result as Exclude<typeof result, ConfigError>).problems)
          expect(problem.length).toBeLessThan(250)
      }),
      {
        ...runs,
        examples: [
          [
            { 'data-key': 'pk_test_acme', 'data-ref-param': '\u0001'.repeat(81) },
            'https://x.test/',
          ],
          [{ 'data-key': 'pk_test_acme', 'data-ref-param': '"'.repeat(81) }, 'https://x.test/'],
        ],
      },
    )
  })

  it('whatever it accepts passes createReferral’s own checks and starts a widget', () => {
    fc.assert(
      fc.property(startingMap, usableSrc, (attributes, src) => {
        const result = outcome(attributes, src)
        expect(result).not.toBeInstanceOf(ConfigError)
        const { options } = result as Exclude<typeof result, ConfigError>

        // The same checks, applied again, accept each value as it is.
        for (const { option } of Object.values(ATTRIBUTES)) {
          const value = options[option as keyof typeof options]
          if (value !== undefined) expect(checkOption(option, value)).toEqual(value)
        }
        expect(checkOption('apiBase', options.apiBase)).toBeDefined()

        const requests: string[] = []
        const timers: Timers = { setTimeout: () => 0, clearTimeout: () => {} }
        const refParam = options.refParam === undefined ? 'ref' : [options.refParam].flat()[0]
        const referral = createReferral({
          ...options,
          campaign: 'on-demand',
          storage: createMemoryStorage(),
          fetch: (url) => {
            requests.push(url)
            return new Promise(() => {})
          },
          now: () => START,
          timers,
          locks: null,
          host: {
            href: () => `https://shop.test/?${refParam}=${CODE}`,
            replaceUrl: () => {},
            isOnline: () => true,
            listen: () => () => {},
            sendBeacon: undefined,
            language: 'en',
            globalPrivacyControl: false,
          },
        })
        try {
          expect(referral.queueSize()).toBeGreaterThanOrEqual(0)
          if (options.consent === undefined) expect(referral.getAttribution()?.code).toBe(CODE)
          expect(requests).toEqual([]) // nothing is sent synchronously
        } finally {
          referral.destroy()
        }
      }),
      runs,
    )
  })
})

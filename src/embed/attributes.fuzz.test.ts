// Properties of the script tag's attributes (WIDGET.md section 1) for any text a page can put in
// them: only a bad key or no service stops the widget, a secret key never gets through, each
// attribute is read as its option or refused and left at its default, and data-messages keeps
// only strings. The problem sentences: attributes-problems.fuzz.test.ts; that what is accepted
// starts a widget: attributes-start.fuzz.test.ts; the model and the generators:
// test/support/attribute-texts.ts.
import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import {
  ATTRIBUTES,
  apiOf,
  attributeMap,
  httpHref,
  KEY,
  outcome,
  SECRET,
  scriptSrc,
  space,
  startingMap,
  usableSrc,
} from '../../test/support/attribute-texts.ts'
import { fuzzOptions, fuzzTimeout } from '../../test/support/fuzz.ts'
import { ConfigError } from '../shared/errors.ts'

const runs = fuzzOptions
// A longer hunt (FUZZ_RUNS) gets the time it needs.
vi.setConfig({ testTimeout: fuzzTimeout(50) })

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
})

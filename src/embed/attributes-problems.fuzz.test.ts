// Properties of the problem sentences for the script tag's attributes (WIDGET.md section 1),
// for any text a page can put in them: each names its attribute, quotes a bounded part of the
// value, and stays one short sentence (the generators: test/support/attribute-texts.ts).
import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import { outcome, quoted, startingMap, usableSrc } from '../../test/support/attribute-texts.ts'
import { fuzzOptions, fuzzTimeout } from '../../test/support/fuzz.ts'
import { ConfigError } from '../shared/errors.ts'

const runs = fuzzOptions
// A longer hunt (FUZZ_RUNS) gets the time it needs.
vi.setConfig({ testTimeout: fuzzTimeout(50) })

describe('readAttributes', () => {
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
})

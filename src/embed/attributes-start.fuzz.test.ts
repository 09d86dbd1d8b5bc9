// Property of the script tag's attributes (WIDGET.md section 1): whatever readAttributes accepts
// passes createReferral's own checks and starts a widget (the generators:
// test/support/attribute-texts.ts).
import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import { ATTRIBUTES, outcome, startingMap, usableSrc } from '../../test/support/attribute-texts.ts'
import { fuzzOptions, fuzzTimeout } from '../../test/support/fuzz.ts'
import { createReferral } from '../core/create-referral.ts'
import { checkOption } from '../core/option-errors.ts'
import { createMemoryStorage } from '../queue/storage.ts'
import { ConfigError } from '../shared/errors.ts'
import type { Timers } from '../shared/timers.ts'

const runs = fuzzOptions
// A longer hunt (FUZZ_RUNS) gets the time it needs.
vi.setConfig({ testTimeout: fuzzTimeout(50) })
const CODE = 'ABCDEFGH'
const START = Date.UTC(2026, 0, 15, 12)

describe('readAttributes', () => {
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

// Type tests of the public API, what it is given: createReferral's options and the components'
// props. Compile-time assertions (expectTypeOf, @ts-expect-error) that `npm run test:types` (part
// of `npm test`) and `npm run typecheck` check with tsc. What an SPA developer writes against
// `referral-widget` must keep compiling, and what it must refuse must keep being refused.
import { describe, expectTypeOf, test } from 'vitest'
import {
  createMemoryStorage,
  createReferral,
  type Messages,
  ReferralBanner,
  type ReferralOptions,
  type ReferralPanelProps,
  ReferralWidget,
  type ReferralWidgetProps,
  type StorageLike,
  type Theme,
} from '../src/index.ts'

/** The keys of T that must be given. */
type RequiredKeys<T> = {
  [K in keyof T]-?: Pick<T, K> extends Required<Pick<T, K>> ? K : never
}[keyof T]

const minimal = { publicKey: 'pk_test_acme', apiBase: 'https://api.example.test' }

describe('createReferral options', () => {
  test('publicKey and apiBase are required, nothing else', () => {
    expectTypeOf<RequiredKeys<ReferralOptions>>().toEqualTypeOf<'publicKey' | 'apiBase'>()
    expectTypeOf(createReferral).parameter(0).toEqualTypeOf<ReferralOptions>()
    expectTypeOf(createReferral).toBeCallableWith(minimal)
    // @ts-expect-error publicKey is required
    expectTypeOf(createReferral).toBeCallableWith({ apiBase: 'https://api.example.test' })
    // @ts-expect-error apiBase is required
    expectTypeOf(createReferral).toBeCallableWith({ publicKey: 'pk_test_acme' })
  })

  test('the documented options are accepted', () => {
    expectTypeOf(createReferral).toBeCallableWith({
      ...minimal,
      campaignId: 'camp_0123456789abcdef',
      userId: 'user_1',
      refParam: ['ref', 'via'],
      landingUrl: 'https://example.test/',
      locale: 'de',
      theme: 'dark',
      cleanUrl: false,
      outbound: ['app.example.io', '*.example.org'],
    })
    expectTypeOf(createReferral).toBeCallableWith({ ...minimal, outbound: 'app.example.io' })
    // @ts-expect-error hosts are text
    expectTypeOf(createReferral).toBeCallableWith({ ...minimal, outbound: [42] })
    expectTypeOf<Theme>().toEqualTypeOf<'light' | 'dark' | 'auto'>()
    // @ts-expect-error an unknown theme
    expectTypeOf(createReferral).toBeCallableWith({ ...minimal, theme: 'blue' })
  })

  test('fetch, storage and now are injectable', () => {
    expectTypeOf(createReferral).toBeCallableWith({
      ...minimal,
      fetch: (_input: string, _init: RequestInit) => Promise.resolve(new Response('{}')),
      storage: createMemoryStorage(),
      now: () => 0,
    })
    // The platform's own fetch and Web Storage fit.
    expectTypeOf(createReferral).toBeCallableWith({
      ...minimal,
      fetch: globalThis.fetch,
      storage: localStorage,
    })
    // No storage at all: memory only.
    expectTypeOf(createReferral).toBeCallableWith({ ...minimal, storage: null })
    expectTypeOf(createMemoryStorage).returns.toEqualTypeOf<StorageLike>()
    expectTypeOf<Storage>().toExtend<StorageLike>()
    expectTypeOf<ReferralOptions['now']>().toEqualTypeOf<(() => number) | undefined>()
    // @ts-expect-error the clock returns milliseconds, not a Date
    expectTypeOf(createReferral).toBeCallableWith({ ...minimal, now: () => new Date() })
  })
})
describe('components', () => {
  test('ReferralWidget and ReferralBanner take the options as props, plus messages', () => {
    expectTypeOf(ReferralWidget).parameter(0).toEqualTypeOf<ReferralPanelProps>()
    expectTypeOf<ReferralPanelProps>().toExtend<ReferralWidgetProps>()
    expectTypeOf(ReferralWidget).toBeCallableWith({
      ...minimal,
      variant: 'dialog',
      open: true,
      onClose: () => {},
    })
    // The banner has no dialog variant.
    expectTypeOf<ReferralWidgetProps>().not.toHaveProperty('variant')
    expectTypeOf(ReferralBanner).parameter(0).toEqualTypeOf<ReferralWidgetProps>()
    expectTypeOf<ReferralWidgetProps>().toExtend<ReferralOptions>()
    expectTypeOf<ReferralWidgetProps['messages']>().toEqualTypeOf<Partial<Messages> | undefined>()
    expectTypeOf(ReferralWidget).toBeCallableWith({
      ...minimal,
      userId: 'user_1',
      campaignId: 'camp_0123456789abcdef',
      locale: 'fr',
      theme: 'light',
      messages: { headline: 'Give {give}, get {get}', copy: 'Copy' },
      class: 'referral',
      storage: createMemoryStorage(),
      now: () => 0,
    })
    expectTypeOf(ReferralBanner).toBeCallableWith({ ...minimal, messages: { banner: 'Hi' } })
    // @ts-expect-error publicKey is required on the components too
    expectTypeOf(ReferralWidget).toBeCallableWith({ apiBase: 'https://api.example.test' })
    // @ts-expect-error messages are strings
    expectTypeOf(ReferralWidget).toBeCallableWith({ ...minimal, messages: { copy: 1 } })
  })
})

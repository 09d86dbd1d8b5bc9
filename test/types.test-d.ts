// Type tests of the public API: compile-time assertions (expectTypeOf, @ts-expect-error) that
// `npm run test:types` (part of `npm test`) and `npm run typecheck` check with tsc.
// What an SPA developer writes against `referral-widget` must keep compiling, and what it must
// refuse must keep being refused.
import type { ReadableAtom } from 'nanostores'
import { describe, expectTypeOf, test } from 'vitest'
import { createReferralInternals } from '../src/core/create-referral.ts'
import type { METHODS, ReferralInternals } from '../src/core/types.ts'
import {
  ApiError,
  type Attribution,
  type CampaignState,
  ConfigError,
  type Connection,
  createMemoryStorage,
  createReferral,
  type DropReason,
  type LinkState,
  type Messages,
  type PublicCampaign,
  type Referral,
  ReferralBanner,
  type ReferralEvents,
  type ReferralLink,
  type ReferralOptions,
  ReferralWidget,
  type ReferralWidgetProps,
  type StorageLike,
  type Theme,
  type TrackedEvent,
  type TrackProperties,
} from '../src/index.ts'
import * as server from '../src/server.ts'

/** The keys of T that must be given. */
type RequiredKeys<T> = {
  [K in keyof T]-?: Pick<T, K> extends Required<Pick<T, K>> ? K : never
}[keyof T]

declare const referral: Referral
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

describe('a createReferral() instance', () => {
  test('is a Referral', () => {
    expectTypeOf(createReferral).returns.toEqualTypeOf<Referral>()
  })

  test('getLink() resolves to the code and the share URL', () => {
    expectTypeOf(referral.getLink).parameters.toEqualTypeOf<[]>()
    expectTypeOf(referral.getLink).returns.toEqualTypeOf<Promise<ReferralLink>>()
    expectTypeOf(referral.getLink).returns.resolves.toEqualTypeOf<{ code: string; url: string }>()
  })

  test('getAttribution() returns the attribution or null', () => {
    expectTypeOf(referral.getAttribution).returns.toEqualTypeOf<Attribution | null>()
    expectTypeOf<Attribution>().toEqualTypeOf<{
      code: string
      visitorId: string
      capturedAt: string
    }>()
  })

  test('decorate() takes a URL and gives one back', () => {
    expectTypeOf(referral.decorate).parameters.toEqualTypeOf<[url: string]>()
    expectTypeOf(referral.decorate).returns.toEqualTypeOf<string>()
  })

  test('track() takes signup or click and returns whether it was recorded', () => {
    expectTypeOf(referral.track).returns.toEqualTypeOf<boolean>()
    expectTypeOf(referral.track).toBeCallableWith('signup', { userId: 'user_1' })
    expectTypeOf(referral.track).toBeCallableWith('signup', { userId: 'user_1', code: 'AbCd1234' })
    expectTypeOf(referral.track).toBeCallableWith('click', { code: 'AbCd1234' })
    expectTypeOf<TrackProperties>().toEqualTypeOf<{ userId?: string; code?: string }>()
    // @ts-expect-error only signup and click are events
    expectTypeOf(referral.track).toBeCallableWith('purchase', {})
  })

  test('identify, flush, forget, queueSize, destroy; no UI internals', () => {
    expectTypeOf(referral.identify).toBeCallableWith('user_1')
    expectTypeOf(referral.identify).toBeCallableWith(null)
    expectTypeOf(referral.identify).returns.toEqualTypeOf<void>()
    expectTypeOf(referral.flush).returns.toEqualTypeOf<Promise<void>>()
    expectTypeOf(referral.forget).returns.toEqualTypeOf<void>()
    expectTypeOf(referral.queueSize).returns.toEqualTypeOf<number>()
    expectTypeOf(referral.destroy).returns.toEqualTypeOf<void>()
    expectTypeOf<Referral>().not.toHaveProperty('dismissBanner')
    expectTypeOf<Referral>().not.toHaveProperty('needCampaign')
    expectTypeOf<Referral>().not.toHaveProperty('config')
    expectTypeOf<Referral>().not.toHaveProperty('$bannerDismissed')
  })

  test('the public Referral is exactly the documented methods and stores', () => {
    expectTypeOf<keyof Referral>().toEqualTypeOf<
      | (typeof METHODS)[number]
      | '$campaign'
      | '$link'
      | '$attribution'
      | '$queueSize'
      | '$connection'
    >()
  })

  test('the UI internals live on ReferralInternals, beside the public core', () => {
    expectTypeOf<ReferralInternals>().toExtend<Referral>()
    expectTypeOf<ReferralInternals['dismissBanner']>().returns.toEqualTypeOf<void>()
    expectTypeOf<ReferralInternals['needCampaign']>().returns.toEqualTypeOf<void>()
    expectTypeOf<ReferralInternals['$bannerDismissed']>().toExtend<ReadableAtom<boolean>>()
    expectTypeOf<ReferralInternals['config']>().toEqualTypeOf<{
      mode: 'test' | 'live'
      locale: string
      theme: Theme
    }>()
    expectTypeOf(createReferralInternals).returns.toEqualTypeOf<ReferralInternals>()
  })

  test('on() types each event payload and returns an unsubscribe function', () => {
    expectTypeOf<keyof ReferralEvents>().toEqualTypeOf<
      | 'ready'
      | 'link'
      | 'error'
      | 'destroyed'
      | 'event:queued'
      | 'event:sent'
      | 'event:dropped'
      | 'ratelimited'
    >()
    const off = referral.on('event:dropped', (payload) => {
      expectTypeOf(payload.reason).toEqualTypeOf<DropReason>()
      expectTypeOf(payload.event).toEqualTypeOf<TrackedEvent>()
      expectTypeOf(payload.error).toEqualTypeOf<{ code: string; message: string } | undefined>()
    })
    expectTypeOf(off).toEqualTypeOf<() => void>()
    expectTypeOf<DropReason>().toEqualTypeOf<'rejected' | 'expired' | 'overflow' | 'invalid'>()
    referral.on('event:sent', (payload) => {
      expectTypeOf(payload.status).toEqualTypeOf<'accepted' | 'duplicate'>()
    })
    referral.on('ratelimited', (payload) => {
      expectTypeOf(payload.until).toEqualTypeOf<number>()
    })
    referral.on('ready', (payload) => {
      expectTypeOf(payload.campaign).toEqualTypeOf<PublicCampaign | null>()
    })
    referral.on('link', (payload) => {
      expectTypeOf(payload).toEqualTypeOf<ReferralLink>()
    })
    referral.on('error', (payload) => {
      expectTypeOf(payload.error).toEqualTypeOf<Error>()
    })
    // @ts-expect-error not an event
    referral.on('nope', () => {})
  })

  test('the nanostores stores the UI reads', () => {
    expectTypeOf(referral.$campaign).toExtend<ReadableAtom<CampaignState>>()
    expectTypeOf(referral.$link).toExtend<ReadableAtom<LinkState>>()
    expectTypeOf(referral.$attribution).toExtend<ReadableAtom<Attribution | null>>()
    expectTypeOf(referral.$queueSize).toExtend<ReadableAtom<number>>()
    expectTypeOf(referral.$connection).toExtend<ReadableAtom<Connection>>()
    expectTypeOf(referral.$link.get()).toEqualTypeOf<LinkState>()
    expectTypeOf(referral.$queueSize.get()).toEqualTypeOf<number>()
  })
})

describe('components', () => {
  test('ReferralWidget and ReferralBanner take the options as props, plus messages', () => {
    expectTypeOf(ReferralWidget).parameter(0).toEqualTypeOf<ReferralWidgetProps>()
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

describe('errors', () => {
  test('ApiError carries what the service said', () => {
    expectTypeOf<ApiError>().toExtend<Error>()
    expectTypeOf<
      Pick<
        ApiError,
        'name' | 'status' | 'type' | 'code' | 'param' | 'retryAfterMs' | 'retryable' | 'message'
      >
    >().toEqualTypeOf<{
      readonly name: 'ApiError'
      readonly status: number
      readonly type: string
      readonly code: string
      readonly param: string | undefined
      readonly retryAfterMs: number
      readonly retryable: boolean
      message: string
    }>()
    expectTypeOf(ApiError).toBeConstructibleWith({
      status: 429,
      type: 'rate_limit_error',
      code: 'rate_limited',
      message: 'Slow down',
      retryAfterMs: 1000,
    })
  })

  test('ConfigError names the option at fault', () => {
    expectTypeOf<ConfigError>().toExtend<Error>()
    expectTypeOf<ConfigError['option']>().toEqualTypeOf<string>()
    expectTypeOf<ConfigError['name']>().toEqualTypeOf<'ConfigError'>()
    expectTypeOf(ConfigError).toBeConstructibleWith('apiBase', 'apiBase is required')
  })
})

describe('referral-widget/server', () => {
  test('readAttribution and parseAttribution give the widget’s Attribution, or null', () => {
    expectTypeOf(server.readAttribution).returns.toEqualTypeOf<server.Attribution | null>()
    expectTypeOf(server.parseAttribution).returns.toEqualTypeOf<server.Attribution | null>()
    expectTypeOf<server.Attribution>().toEqualTypeOf<Attribution>()
    expectTypeOf(server.readAttribution).parameter(0).toEqualTypeOf<string | null | undefined>()
  })

  test('recordSignup needs a key, a base and a user id, and resolves to the event’s verdict', () => {
    expectTypeOf(server.recordSignup).returns.resolves.toEqualTypeOf<server.SignupResult>()
    expectTypeOf<server.SignupResult['status']>().toEqualTypeOf<
      'accepted' | 'duplicate' | 'rejected'
    >()
    // @ts-expect-error userId is required
    void (() => server.recordSignup({ secretKey: 'sk_test_acme', apiBase: 'https://x.test' }))
    expectTypeOf<server.RecordSignupError['reason']>().toEqualTypeOf<'timeout' | 'refused'>()
  })

  test('recordPurchase needs an order id, an amount and a currency too (service extension)', () => {
    expectTypeOf(server.recordPurchase).returns.resolves.toEqualTypeOf<server.PurchaseResult>()
    expectTypeOf<server.PurchaseResult['status']>().toEqualTypeOf<
      'accepted' | 'duplicate' | 'rejected'
    >()
    const base = { secretKey: 'sk_test_acme', apiBase: 'https://x.test', userId: 'u1' }
    // @ts-expect-error orderId, amount and currency are required
    void (() => server.recordPurchase(base))
    void (() => server.recordPurchase({ ...base, orderId: 'A-1', amount: 5, currency: 'EUR' }))
    expectTypeOf<server.RecordPurchaseError['reason']>().toEqualTypeOf<
      'timeout' | 'refused' | 'unsupported'
    >()
    expectTypeOf<server.RecordPurchaseError['orderId']>().toEqualTypeOf<string>()
  })
})

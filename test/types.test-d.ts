// Type tests of the public API, what it gives back: a createReferral() instance (its methods,
// events and stores, and the internals the UI keeps apart) and the errors it reports. What it is
// given (options, component props): types-options.test-d.ts; the server entry:
// types-server.test-d.ts. Compile-time assertions (expectTypeOf, @ts-expect-error) that
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
  createReferral,
  type DropReason,
  type LinkState,
  type PublicCampaign,
  type Referral,
  type ReferralEvents,
  type ReferralLink,
  type Theme,
  type TrackedEvent,
  type TrackProperties,
} from '../src/index.ts'

declare const referral: Referral

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
      | 'open'
      | 'close'
      | 'event:queued'
      | 'event:sent'
      | 'event:dropped'
      | 'ratelimited'
      | 'selfreferral'
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

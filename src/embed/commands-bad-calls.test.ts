// @vitest-environment happy-dom
// window.Referral (WIDGET.md section 1): a bad call, queued before load or made after it, is
// reported with the [referral] prefix, never thrown (the page: test/support/command-page.ts).
import { describe, expect, it } from 'vitest'
import type { TrackedEvent } from '../../demo/service/schemas.ts'
import {
  installStub,
  load,
  referralErrors,
  useCommandPage,
} from '../../test/support/command-page.ts'

useCommandPage()

describe('bad calls never throw into the host page', () => {
  it('an unknown method in the queue: a [referral] console.error, and the rest still runs', () => {
    const Referral = installStub()
    Referral('track', 'signup', { userId: 'bob' })
    Referral('nope', 1, 2)
    Referral('track', 'signup', { userId: 'carol' })
    const seen: TrackedEvent[] = []

    expect(() =>
      load((core) => core.on('event:queued', ({ event }) => seen.push(event))),
    ).not.toThrow()

    expect(seen.map((event) => event.userId)).toEqual(['bob', 'carol'])
    const errors = referralErrors()
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatch(/^\[referral\] /)
    expect(errors[0]).toContain('"nope"')
  })

  it('a queued call that fails: reported, not thrown, and the rest still runs', () => {
    const Referral = installStub()
    Referral('identify', 'alice smith') // not a valid user id
    Referral('track', 'signup', { userId: 'carol' })
    const seen: TrackedEvent[] = []

    expect(() =>
      load((core) => core.on('event:queued', ({ event }) => seen.push(event))),
    ).not.toThrow()

    expect(seen.map((event) => event.userId)).toEqual(['carol'])
    const errors = referralErrors()
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatch(/^\[referral\] userId="[^"]*" is refused: a user id is 1-128 letters/)
  })

  it.each([
    ['an unknown name', 'launchRockets'],
    ['an inherited name', 'toString'],
    ['constructor', 'constructor'],
    ['__proto__', '__proto__'],
    ['hasOwnProperty', 'hasOwnProperty'],
    ['a number', 42],
    ['nothing', undefined],
  ])('after load, %s: a [referral] console.error, undefined, no throw', (_, method) => {
    const { api } = load()
    let result: unknown = 'not called'
    expect(() => {
      result = (api as unknown as (...args: unknown[]) => unknown)(method)
    }).not.toThrow()
    expect(result).toBeUndefined()
    const errors = referralErrors()
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatch(/^\[referral\] Referral\(.*\) is not a method/)
  })

  it('a throwing method called after load is reported, not thrown', () => {
    const { api } = load()
    expect(() => api('identify', { id: 'alice' })).not.toThrow()
    expect(referralErrors()[0]).toMatch(/^\[referral\] /)
  })

  it('track with bad input returns false and says why', () => {
    const { api } = load()
    expect(api('track', 'click', { code: 'x' })).toBe(false)
    expect(referralErrors()[0]).toMatch(/^\[referral\] .*referral code/)
  })
})

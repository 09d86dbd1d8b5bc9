// @vitest-environment happy-dom
// The tracker's side of checkouts: the links module comes once a referral is held, carries the
// referral held now (another one replaces it, one forgotten takes it away), and a page without a
// referral never brings it.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { CAMPAIGN } from '../../../test/support/api-client.ts'
import { readCheckoutReference } from '../../api/checkout-reference.ts'
import { globalTimers } from '../../shared/timers.ts'
import { createEmitter } from '../emitter.ts'
import { browserHost } from '../host.ts'
import type { Attribution } from '../stores.ts'
import type { CoreEvents } from '../types.ts'
import { checkoutLinks } from './links.ts'
import { startCheckout } from './start.ts'

const alice: Attribution = { code: 'AbC123xy', visitorId: 'v_friend_0001', capturedAt: '' }
const bob: Attribution = { code: 'Zz9Bob42', visitorId: 'v_friend_0001', capturedAt: '' }
const stops: Array<() => void> = []

function start(first: Attribution | null) {
  let held = first
  const events = createEmitter<CoreEvents>()
  const links = vi.fn(async () => checkoutLinks)
  const checkout = startCheckout({
    held: () => held,
    links,
    events,
    host: browserHost,
    timers: globalTimers,
    api: { request: async () => CAMPAIGN as never },
    campaignId: CAMPAIGN.id,
  })
  stops.push(checkout.stop)
  const change = (next: Attribution | null, event: 'captured' | 'forgotten') => {
    held = next
    events.emit(event, undefined)
  }
  return { checkout, links, change }
}

const carried = () =>
  readCheckoutReference(
    document.querySelector('stripe-buy-button')?.getAttribute('client-reference-id'),
  )

afterEach(() => {
  for (const stop of stops.splice(0)) stop()
  document.body.replaceChildren()
})

describe('startCheckout', () => {
  it('carries the referral held now: another one replaces it, one forgotten takes it away', async () => {
    document.body.append(document.createElement('stripe-buy-button'))
    const { change } = start(alice)
    await vi.waitFor(async () => expect(await carried()).toMatchObject({ code: alice.code }))
    change(bob, 'captured')
    await vi.waitFor(async () => expect(await carried()).toMatchObject({ code: bob.code }))
    change(null, 'forgotten')
    await vi.waitFor(async () => expect(await carried()).toEqual({ problem: 'absent' }))
  })

  it('never brings the links module without a referral, and brings it once one is captured', async () => {
    const { links, change, checkout } = start(null)
    expect(await checkout.reference()).toBeNull()
    expect(links).not.toHaveBeenCalled()
    change(alice, 'captured')
    await vi.waitFor(() => expect(links).toHaveBeenCalledTimes(1))
  })
})

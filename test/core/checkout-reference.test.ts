// Referral.checkoutReference() (WIDGET.md section 13): the held referral as the one string a
// checkout carries to the site's server, read back there by the server entry's reader. Null
// without a referral; never a rejection, also where the page broke Web Crypto.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { readCheckoutReference } from '../../src/api/checkout-reference.ts'
import { SEND_DELAY_MS } from '../../src/queue/queue.ts'
import { useDeliveryWorld } from '../support/delivery-world.ts'

const scene = useDeliveryWorld(Date.UTC(2026, 11, 6, 12))

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('checkoutReference()', () => {
  it("carries the arrival's code and this visitor's id, and reads back as that referral", async () => {
    const code = await scene.world.makeLink('alice')
    const tab = scene.open({ href: `https://shop.test/pricing?ref=${code}` })
    await vi.advanceTimersByTimeAsync(SEND_DELAY_MS)
    const held = tab.getAttribution()
    expect(held?.code).toBe(code)

    const reference = await tab.checkoutReference()
    // Stripe's client_reference_id: 1-200 of A-Z a-z 0-9 _ -.
    expect(reference).toMatch(/^[A-Za-z0-9_-]{1,200}$/)
    expect(await readCheckoutReference(reference)).toEqual({
      code,
      visitorId: held?.visitorId,
    })
  })

  it('is null for a visitor who arrived through no link', async () => {
    const tab = scene.open({ href: 'https://shop.test/pricing' })
    await vi.advanceTimersByTimeAsync(SEND_DELAY_MS)
    expect(tab.getAttribution()).toBeNull()
    expect(await tab.checkoutReference()).toBeNull()
  })

  it('is null, not a rejection, where the page has replaced Web Crypto with something that throws', async () => {
    const code = await scene.world.makeLink('bob')
    const tab = scene.open({ href: `https://shop.test/?ref=${code}` })
    await vi.advanceTimersByTimeAsync(SEND_DELAY_MS)
    vi.stubGlobal('crypto', {
      subtle: {
        digest: () => {
          throw new Error('the page broke it')
        },
      },
    })
    expect(tab.getAttribution()?.code).toBe(code)
    await expect(tab.checkoutReference()).resolves.toBeNull()
  })

  it('with the checkout option and no document (the core on a server): the reference, nothing thrown', async () => {
    expect(typeof document).toBe('undefined')
    const code = await scene.world.makeLink('carol')
    const tab = scene.open({ href: `https://shop.test/?ref=${code}`, checkout: true })
    await vi.advanceTimersByTimeAsync(SEND_DELAY_MS)
    expect(await readCheckoutReference(await tab.checkoutReference())).toMatchObject({ code })
  })
})

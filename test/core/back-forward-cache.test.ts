// A page kept in the back/forward cache and shown again (WIDGET.md section 9): while it is hidden
// its timers are frozen; shown again (`pageshow` with `persisted`) it carries on as if nothing
// happened: what waits is sent on the real clock, the arrival is not recorded again, the campaign
// is asked for again when it may be old, and what the visitor chose stays as it was.
import { describe, expect, it, vi } from 'vitest'
import { SEND_DELAY_MS } from '../../src/queue/queue.ts'
import { createMemoryStorage } from '../../src/queue/storage.ts'
import { updateCampaign } from '../support/campaign-owner.ts'
import { settle, useDeliveryWorld } from '../support/delivery-world.ts'
import { createLifecycle } from '../support/harness.ts'
import { seeded } from '../support/storage.ts'

const SECOND = 1000
const MINUTE = 60 * SECOND
const START = Date.UTC(2026, 0, 15, 12)

const scene = useDeliveryWorld(START)

const campaignRequests = () =>
  scene.world.sent.filter((request) => request.path.startsWith('/v1/campaigns')).length

describe('a page shown again from the back/forward cache', () => {
  it('sends what waited when it was left (the service unreachable), once, on the real clock', async () => {
    const lifecycle = createLifecycle()
    const tab = await scene.openReady({ lifecycle, storage: createMemoryStorage() })
    const ids: string[] = []
    tab.on('event:queued', ({ event }) => ids.push(event.id))
    scene.world.faults.push({ kind: 'network' })
    tab.track('signup', { userId: 'left-waiting' })
    await vi.advanceTimersByTimeAsync(SEND_DELAY_MS)
    await settle()
    expect(tab.queueSize()).toBe(1)
    lifecycle.leave()

    // Away for ten minutes: a frozen page sends nothing, its backoff timer waits.
    await vi.advanceTimersByTimeAsync(10 * MINUTE)
    expect(scene.world.eventRequests()).toHaveLength(1)

    lifecycle.back()
    await settle()
    expect(tab.queueSize()).toBe(0)
    expect(scene.world.eventRequests().map((request) => request.status)).toEqual(['network', 200])
    expect(await scene.world.counted(ids)).toEqual(['duplicate'])
  })

  it('keeps a backoff that ended while it was away from holding the events after it', async () => {
    const lifecycle = createLifecycle()
    const tab = await scene.openReady({ lifecycle, random: seeded(3) })
    scene.world.faults.push({ kind: 'status', status: 503 })
    tab.track('signup', { userId: 'after-outage' })
    await vi.advanceTimersByTimeAsync(SEND_DELAY_MS)
    await settle()
    expect(tab.$connection.get().state).toBe('retrying')
    lifecycle.leave()
    await vi.advanceTimersByTimeAsync(5 * MINUTE)

    lifecycle.back()
    await settle()
    expect(tab.queueSize()).toBe(0)
    expect(tab.$connection.get()).toEqual({ state: 'online' })
  })

  it('does not record the arrival again, however often the visitor goes back', async () => {
    const lifecycle = createLifecycle()
    const code = await scene.world.makeLink('alice')
    const before = (await scene.world.campaign()).stats.totalClicks
    const tab = scene.open({ lifecycle, href: `https://shop.test/?ref=${code}`, cleanUrl: false })
    await vi.advanceTimersByTimeAsync(SEND_DELAY_MS)
    for (let visit = 0; visit < 2; visit++) {
      lifecycle.leave()
      await vi.advanceTimersByTimeAsync(MINUTE)
      lifecycle.back()
      await vi.advanceTimersByTimeAsync(SEND_DELAY_MS)
    }
    expect((await scene.world.campaign()).stats.totalClicks - before).toBe(1)
    expect(tab.getAttribution()?.code).toBe(code)
  })

  it('asks for the campaign again when it may be old, not when the visitor was away a moment', async () => {
    const lifecycle = createLifecycle()
    const tab = await scene.openReady({ lifecycle, campaign: 'eager' })
    expect(tab.$campaign.get().status).toBe('ready')
    const first = campaignRequests()

    lifecycle.leave()
    await vi.advanceTimersByTimeAsync(5 * SECOND)
    lifecycle.back()
    await settle()
    expect(campaignRequests()).toBe(first)

    // Meanwhile the campaign's reward changed; the visitor comes back after ten minutes.
    await updateCampaign(scene.world, { referrerReward: { amount: 25 } })
    lifecycle.leave()
    await vi.advanceTimersByTimeAsync(10 * MINUTE)
    lifecycle.back()
    await settle()
    expect(campaignRequests()).toBe(first + 1)
    const shown = tab.$campaign.get()
    expect(shown.status === 'ready' && shown.campaign.referrerReward.amount).toBe(25)
  })

  it('keeps the consent given and the visitor: what is tracked after it goes, from the same visitor', async () => {
    const lifecycle = createLifecycle()
    const tab = await scene.openReady({ lifecycle, consent: 'required' })
    const visitors: string[] = []
    tab.on('event:queued', ({ event }) => visitors.push(event.visitorId))
    tab.consent(true)
    tab.track('signup', { userId: 'before-leaving' })
    await vi.advanceTimersByTimeAsync(SEND_DELAY_MS)
    lifecycle.leave()
    await vi.advanceTimersByTimeAsync(MINUTE)
    lifecycle.back()
    await settle()
    tab.track('signup', { userId: 'after-restore' })
    await vi.advanceTimersByTimeAsync(SEND_DELAY_MS)
    expect(tab.queueSize()).toBe(0)
    expect(scene.world.eventRequests()).toHaveLength(2)
    expect(new Set(visitors).size).toBe(1)
  })
})

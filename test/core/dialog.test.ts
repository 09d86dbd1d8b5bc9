// open(), close() and prompt() as the core keeps them: the events, once each; a prompt once per
// user and campaign in this browser, remembered within a bound, never while consent is pending,
// and from storage that may hold anything. Time is the fake clock's (useFakeClock).
import { describe, expect, it, vi } from 'vitest'
import { MAX_PROMPTED } from '../../src/core/dialog.ts'
import type { StorageLike } from '../../src/queue/storage.ts'
import { createMemoryStorage } from '../../src/queue/storage.ts'
import { addCampaign, updateCampaign } from '../support/campaign-owner.ts'
import { tick as settle, useFakeClock } from '../support/delivery-world.ts'
import { createWorld } from '../support/harness.ts'

useFakeClock(Date.UTC(2026, 11, 5, 9))

const keysOf = (storage: StorageLike) =>
  Array.from({ length: storage.length }, (_, i) => storage.key(i) ?? '')
const promptedKey = (storage: StorageLike) =>
  keysOf(storage).find((key) => key.endsWith(':prompted'))

describe('open and close', () => {
  it('announce each change once; the core runs where there is no DOM', async () => {
    const tab = createWorld().tab({ userId: 'alice' })
    const heard: string[] = []
    tab.on('open', ({ prompted }) => heard.push(`open:${prompted}`))
    tab.on('close', () => heard.push('close'))
    tab.close()
    tab.open({} as Element) // no Element here: nothing to give the focus back to
    tab.open()
    expect(tab.$dialog.get()).toEqual({ open: true, opener: undefined, prompted: false })
    tab.close()
    tab.close()
    expect(heard).toEqual(['open:false', 'close'])
    tab.destroy()
  })
})

describe('prompt', () => {
  it('opens once per user and campaign in this browser, in this tab and the next', async () => {
    const world = createWorld()
    const storage = createMemoryStorage()
    const first = world.tab({ storage, userId: 'alice' })
    const opened = vi.fn()
    first.on('open', opened)
    first.prompt()
    await settle()
    expect(opened).toHaveBeenCalledWith({ prompted: true })
    first.close()
    first.prompt()
    await settle()
    expect(opened).toHaveBeenCalledTimes(1)
    first.destroy()

    const second = world.tab({ storage, userId: 'alice' })
    second.prompt()
    await settle()
    expect(second.$dialog.get().open).toBe(false)
    // Another user of this browser is asked too; so is alice for a new campaign.
    second.identify('bob')
    second.prompt()
    await settle()
    expect(second.$dialog.get()).toMatchObject({ open: true, prompted: true })
    second.destroy()
    await updateCampaign(world, { status: 'paused' })
    const campaignId = await addCampaign(world, 'Acme winter')
    const third = world.tab({ storage, userId: 'alice', campaignId })
    third.prompt()
    await settle()
    expect(third.$dialog.get().open).toBe(true)
    third.destroy()
  })

  it('waits for the campaign, and asks nothing of anyone when no one is signed in', async () => {
    const world = createWorld()
    const tab = world.tab({ campaign: 'on-demand' })
    tab.prompt()
    await settle()
    expect(world.sent).toEqual([])
    expect(tab.$dialog.get().open).toBe(false)
    tab.identify('alice')
    tab.prompt()
    expect(tab.$dialog.get().open).toBe(false) // the campaign is on its way
    await settle()
    expect(tab.$dialog.get().open).toBe(true)
    tab.destroy()
  })

  it('does not open for a paused campaign', async () => {
    const world = createWorld()
    await updateCampaign(world, { status: 'paused' })
    const tab = world.tab({ userId: 'alice', campaignId: 'camp_acmeFriendsAndFamily' })
    tab.prompt()
    await settle()
    expect(tab.$dialog.get().open).toBe(false)
    tab.destroy()
  })

  it('neither prompts nor remembers while consent is pending, and does once it is given', async () => {
    const storage = createMemoryStorage()
    const tab = createWorld().tab({ storage, userId: 'alice', consent: 'required' })
    tab.prompt()
    await settle()
    expect(tab.$dialog.get().open).toBe(false)
    expect(promptedKey(storage)).toBeUndefined()
    tab.consent(true)
    tab.prompt()
    await settle()
    expect(tab.$dialog.get().open).toBe(true)
    tab.destroy()
  })

  it(`remembers the last ${MAX_PROMPTED} prompts in a few hundred characters, never a user id`, async () => {
    const world = createWorld()
    const storage = createMemoryStorage()
    const tab = world.tab({ storage })
    for (let user = 0; user <= MAX_PROMPTED; user++) {
      tab.identify(`user-${user}@example.com`)
      tab.prompt()
      await settle()
      expect(tab.$dialog.get().open).toBe(true)
      tab.close()
    }
    const key = promptedKey(storage) ?? ''
    const stored = storage.getItem(key) ?? ''
    expect(stored.length).toBeLessThan(300)
    expect(stored).not.toContain('user-')
    // The first is forgotten (asked again), the last is not.
    tab.identify('user-0@example.com')
    tab.prompt()
    await settle()
    expect(tab.$dialog.get().open).toBe(true)
    tab.close()
    tab.identify(`user-${MAX_PROMPTED}@example.com`)
    tab.prompt()
    await settle()
    expect(tab.$dialog.get().open).toBe(false)
    tab.destroy()
  })

  it('reads storage as untrusted: anything in the prompt record is as if nothing were', async () => {
    const world = createWorld()
    const storage = createMemoryStorage()
    const probe = world.tab({ storage, userId: 'probe' })
    probe.prompt()
    await settle()
    probe.destroy()
    const key = promptedKey(storage) ?? ''
    expect(key).not.toBe('')
    for (const junk of ['{', '{"v":1,"keys":"x"}', '{"v":1,"keys":[1,{}]}', 'null', '[]']) {
      storage.setItem(key, junk)
      const tab = world.tab({ storage, userId: 'alice' })
      tab.prompt()
      await settle()
      expect(tab.$dialog.get().open, junk).toBe(true)
      tab.destroy()
      storage.removeItem(key)
    }
  })
})

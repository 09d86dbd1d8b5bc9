// @vitest-environment happy-dom
// window.Referral (WIDGET.md section 1): calls queued by the documented stub before the script
// loaded reach the core in order when it loads (the page: test/support/command-page.ts).
import { describe, expect, it } from 'vitest'
import type { TrackedEvent } from '../../demo/service/schemas.ts'
import {
  cores,
  errorSpy,
  installStub,
  linkCode,
  load,
  page,
  type Stub,
  summary,
  useCommandPage,
  world,
} from '../../test/support/command-page.ts'
import { settle } from '../../test/support/delivery-world.ts'
import { createCommandApi, replay } from './commands.ts'

useCommandPage()

describe('calls made before the script loaded', () => {
  it('reach the core in the order they were made', async () => {
    const code = await linkCode()
    const Referral = installStub()
    Referral('track', 'signup', { userId: 'bob' })
    Referral('track', 'signup', { userId: 'carol' })
    Referral('track', 'click', { code })
    Referral('track', 'signup', { userId: 'dave' })

    const seen: TrackedEvent[] = []
    load((core) => core.on('event:queued', ({ event }) => seen.push(event)))

    expect(seen.map(summary)).toEqual([
      ['signup', 'bob', null],
      ['signup', 'carol', null],
      ['click', null, code],
      // Attributed: the click was replayed before this signup, not after.
      ['signup', 'dave', code],
    ])
  })

  it('reach the service in that order too', async () => {
    const Referral = installStub()
    Referral('track', 'signup', { userId: 'bob' })
    Referral('track', 'signup', { userId: 'carol' })
    const seen: TrackedEvent[] = []
    const { core } = load((core) => core.on('event:queued', ({ event }) => seen.push(event)))
    await settle()

    expect(core.queueSize()).toBe(0)
    const sentIds = world.eventRequests().flatMap((request) => request.eventIds)
    expect(sentIds).toEqual(seen.map((event) => event.id))
  })

  it('a listener queued with on() hears the calls queued after it', async () => {
    const code = await linkCode()
    const heard: string[] = []
    const Referral = installStub()
    Referral('on', 'event:queued', ({ event }: { event: TrackedEvent }) =>
      heard.push(`${event.type}:${event.userId ?? event.code}`),
    )
    Referral('track', 'click', { code })
    Referral('track', 'signup', { userId: 'bob' })
    load()

    expect(heard).toEqual([`click:${code}`, 'signup:bob'])
  })

  it('identify queued before load gives the panel’s link for that user', async () => {
    const Referral = installStub()
    Referral('identify', 'alice')
    const { api } = load()
    await settle()

    const link = await (api.getLink as () => Promise<{ code: string; url: string }>)()
    expect(link.url).toBe(`https://shop.test/?ref=${link.code}`)
    expect(link.code).toBe(await linkCode('alice'))
  })

  it('the last identify wins', async () => {
    const Referral = installStub()
    Referral('identify', 'alice')
    Referral('identify', 'bob')
    const { api } = load()
    await settle()

    const link = await (api.getLink as () => Promise<{ code: string }>)()
    expect(link.code).toBe(await linkCode('bob'))
  })

  it('a page that loads the stub twice keeps the first queue', () => {
    const Referral = installStub()
    Referral('track', 'signup', { userId: 'bob' })
    installStub() // a second copy of the snippet: `window.Referral || …` keeps the first
    ;(page.Referral as Stub)('track', 'signup', { userId: 'carol' })
    const seen: TrackedEvent[] = []
    load((core) => core.on('event:queued', ({ event }) => seen.push(event)))
    expect(seen.map((event) => event.userId)).toEqual(['bob', 'carol'])
  })

  it.each([
    ['no stub', undefined],
    ['a stub that was never called', []],
    ['something that is not a queue', 'q'],
  ])('nothing to replay (%s): nothing happens, nothing is logged', (_, queued) => {
    const core = world.tab()
    cores.push(core)
    const api = createCommandApi(core)
    expect(() => replay(api, queued)).not.toThrow()
    expect(core.queueSize()).toBe(0)
    expect(errorSpy).not.toHaveBeenCalled()
  })
})

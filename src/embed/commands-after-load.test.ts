// @vitest-environment happy-dom
// window.Referral (WIDGET.md section 1): after load it is callable as Referral('method', ...args)
// and has the methods themselves (the page: test/support/command-page.ts).
import { describe, expect, it } from 'vitest'
import type { TrackedEvent } from '../../demo/service/schemas.ts'
import {
  installStub,
  linkCode,
  load,
  page,
  useCommandPage,
} from '../../test/support/command-page.ts'
import { settle } from '../../test/support/delivery-world.ts'
import type { CommandApi } from './commands.ts'

useCommandPage()

describe('window.Referral after load', () => {
  it('is still callable as Referral(method, ...args)', () => {
    installStub()
    const { api } = load()
    const seen: TrackedEvent[] = []
    const off = api('on', 'event:queued', ({ event }: { event: TrackedEvent }) => seen.push(event))
    expect(typeof off).toBe('function')

    page.Referral && (page.Referral as CommandApi)('track', 'signup', { userId: 'bob' })
    expect(seen.map((event) => event.userId)).toEqual(['bob'])
    expect(api('queueSize')).toBe(1)
  })

  it('has the methods themselves', () => {
    const { api } = load()
    const seen: string[] = []
    const off = (
      api.on as (name: string, fn: (payload: { event: TrackedEvent }) => void) => () => void
    )('event:queued', ({ event }) => seen.push(event.userId ?? ''))
    ;(api.track as (type: string, properties: object) => boolean)('signup', { userId: 'bob' })
    off()
    ;(api.track as (type: string, properties: object) => boolean)('signup', { userId: 'carol' })

    expect(seen).toEqual(['bob'])
    expect((api.queueSize as () => number)()).toBe(2)
  })

  it('getAttribution gives the code the visitor arrived with', async () => {
    const code = await linkCode()
    const Referral = installStub()
    Referral('track', 'click', { code })
    const { api } = load()
    const attribution = api('getAttribution') as { code: string; visitorId: string } | null
    expect(attribution?.code).toBe(code)
    expect(attribution?.visitorId).toMatch(/^[A-Za-z0-9_-]{8,64}$/)
  })

  it('flush returns a promise that settles once the queue was tried', async () => {
    const { api } = load()
    api('track', 'signup', { userId: 'bob' })
    const flushed = api('flush') as Promise<void>
    expect(flushed).toBeInstanceOf(Promise)
    let done = false
    void flushed.then(() => {
      done = true
    })
    await settle()
    expect(done).toBe(true)
    expect(api('queueSize')).toBe(0)
  })

  it('every documented method exists, callable both ways', () => {
    const { api } = load()
    const documented = [
      'identify',
      'track',
      'getLink',
      'getAttribution',
      'decorate',
      'on',
      'flush',
      'consent',
      'forget',
      'queueSize',
      'destroy',
    ]
    const missing = documented.filter((name) => typeof api[name] !== 'function')
    expect(missing).toEqual([])
  })
})

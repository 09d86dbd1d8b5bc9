// @vitest-environment happy-dom
// window.Referral (WIDGET.md section 1): calls queued by the documented stub before the script
// loaded reach the core in order; after load it is callable as Referral('method', ...args) and
// has the methods themselves; a bad call is reported with the [referral] prefix, never thrown.
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest'
import type { TrackedEvent } from '../../demo/service/schemas.ts'
import { createWorld } from '../../test/support/harness.ts'
import { resetWarnings } from '../shared/log.ts'
import { type CommandApi, createCommandApi, replay } from './commands.ts'

const START = Date.UTC(2026, 0, 15, 12)

type World = ReturnType<typeof createWorld>
type Core = ReturnType<World['tab']>
type Stub = ((...args: unknown[]) => void) & { q?: IArguments[] }
type Page = { Referral?: Stub | CommandApi | undefined }

const page = window as unknown as Page

let world: World
let errorSpy: MockInstance<typeof console.error>
let cores: Core[] = []

beforeEach(() => {
  vi.useFakeTimers({ now: START })
  resetWarnings()
  vi.spyOn(console, 'warn').mockImplementation(() => {})
  errorSpy = vi.spyOn(console, 'error').mockImplementation(() => {})
  world = createWorld()
  cores = []
  page.Referral = undefined
})

afterEach(() => {
  for (const core of cores) core.destroy()
  page.Referral = undefined
  vi.useRealTimers()
  vi.restoreAllMocks()
})

// --- helpers ---------------------------------------------------------------------------------

async function settle() {
  for (let i = 0; i < 5; i++) await vi.advanceTimersByTimeAsync(0)
}

/**
 * The documented stub, as a site pastes it:
 * window.Referral=window.Referral||function(){(Referral.q=Referral.q||[]).push(arguments)}
 */
function installStub(): (method: string, ...args: unknown[]) => void {
  page.Referral =
    page.Referral ||
    function (this: unknown) {
      const stub = page.Referral as Stub
      stub.q = stub.q || []
      // biome-ignore lint/complexity/noArguments: the documented stub queues `arguments` objects
      stub.q.push(arguments)
    }
  return page.Referral as (method: string, ...args: unknown[]) => void
}

/** What the script does on load: a core, the command API in place of the stub, the replay. */
function load(beforeReplay?: (core: Core) => void) {
  const core = world.tab()
  cores.push(core)
  beforeReplay?.(core)
  const queued = (page.Referral as Stub | undefined)?.q
  const api = createCommandApi(core)
  page.Referral = api
  replay(api, queued)
  return { core, api }
}

/** Events as the core announced them: type, user and code. */
const summary = (event: TrackedEvent) => [event.type, event.userId ?? null, event.code ?? null]

const referralErrors = () =>
  errorSpy.mock.calls.map((call) => String(call[0])).filter((text) => text.includes('[referral]'))

async function linkCode(referrerId = 'alice'): Promise<string> {
  return world.makeLink(referrerId)
}

// --- replay ----------------------------------------------------------------------------------

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

// --- bad calls -------------------------------------------------------------------------------

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

// --- after load ------------------------------------------------------------------------------

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

// window.Referral while the loader alone is there (commands.ts with `early`): what the loader
// knows it answers at once; every other call waits, in order, and runs when the tracking part
// (then the later part, with identify) attaches its methods. A waiting getLink or flush gets its
// promise at once (settled, not left pending, when the part cannot run), a waiting on() an
// unsubscribe that works before and after; bad calls are reported, never thrown into the page.
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest'
import { type CommandApi, createCommandFunction, type Methods, WAIT } from './commands.ts'

let errorSpy: MockInstance<typeof console.error>

beforeEach(() => {
  errorSpy = vi.spyOn(console, 'error').mockImplementation(() => {})
})

afterEach(() => {
  vi.restoreAllMocks()
})

/** The [referral] console errors so far. */
const referralErrors = () =>
  errorSpy.mock.calls.map((call) => String(call[0])).filter((text) => text.startsWith('[referral]'))

/** Methods that write down each call they get, as `name:args`, in `log`. */
function recording(log: string[], names: string[], results: Record<string, unknown> = {}) {
  return Object.fromEntries(
    names.map((name) => [
      name,
      (...args: unknown[]) => {
        log.push(`${name}:${args.map(String).join(',')}`)
        return results[name]
      },
    ]),
  ) as Methods
}

/** A loader that answers queueSize and getAttribution itself, and waits for the rest. */
function loader(answers: Record<string, unknown> = { queueSize: 2, getAttribution: null }) {
  const asked: string[] = []
  const command = createCommandFunction((name) => {
    asked.push(name)
    return name in answers ? answers[name] : WAIT
  })
  return { ...command, asked }
}

describe('before the tracking part', () => {
  it("returns the loader's answers at once, called by name or as a method", () => {
    const { api } = loader()
    expect(api('queueSize')).toBe(2)
    expect((api.queueSize as () => number)()).toBe(2)
    expect(api('getAttribution')).toBeNull()
  })

  it('gives early the arguments of the call', () => {
    const seen: unknown[][] = []
    const { api } = createCommandFunction((_, args) => {
      seen.push(args)
      return 'answered'
    })
    expect(api('decorate', 'https://app.test/', 1)).toBe('answered')
    expect(seen).toEqual([['https://app.test/', 1]])
  })

  it('a call the loader answered never runs again when the part comes', () => {
    const log: string[] = []
    const { api, attach } = loader({ track: true })
    expect(api('track', 'signup', 'kept')).toBe(true)
    attach(recording(log, ['track']))
    expect(log).toEqual([])
  })

  it('a call the loader cannot answer returns undefined, and waits', () => {
    const log: string[] = []
    const { api, attach } = loader()
    expect(api('track', 'signup', 'a')).toBeUndefined()
    expect(api('consent', true)).toBeUndefined()
    expect(log).toEqual([])
    attach(recording(log, ['track', 'consent']))
    expect(log).toEqual(['track:signup,a', 'consent:true'])
  })
})

describe('when the tracking part attaches', () => {
  it('the waiting calls run in the order they were made, then every call goes there', () => {
    const log: string[] = []
    const { api, attach, asked } = loader()
    api('track', 'click', 'one')
    api('consent', true)
    api('track', 'signup', 'two')
    attach(recording(log, ['track', 'consent', 'queueSize'], { queueSize: 7 }))
    expect(log).toEqual(['track:click,one', 'consent:true', 'track:signup,two'])

    api('track', 'signup', 'three')
    expect(api('queueSize')).toBe(7) // the part's answer now, not the loader's
    expect(log.slice(3)).toEqual(['track:signup,three', 'queueSize:'])
    expect(asked).toEqual(['track', 'consent', 'track'])
  })

  it('identify waits through a part without it, and runs, in order, when it comes', () => {
    const log: string[] = []
    const { api, attach } = loader()
    api('identify', 'alice')
    api('track', 'signup', 'a')
    attach(recording(log, ['track', 'getLink']))
    expect(log).toEqual(['track:signup,a'])

    // Made now, it waits behind the one made earlier.
    api('identify', 'bob')
    api('track', 'signup', 'b')
    expect(log).toEqual(['track:signup,a', 'track:signup,b'])

    attach(recording(log, ['identify']))
    expect(log.slice(2)).toEqual(['identify:alice', 'identify:bob'])
    api('identify', 'carol')
    expect(log.slice(4)).toEqual(['identify:carol'])
  })

  it('the first part keeps its methods when the later one attaches', () => {
    const log: string[] = []
    const { api, attach } = loader()
    attach(recording(log, ['track']))
    attach(recording(log, ['identify']))
    api('track', 'click', 'x')
    expect(log).toEqual(['track:click,x'])
  })
})

describe('a waiting call that returns a promise', () => {
  it.each([
    ['getLink', { code: 'ABCD1234', url: 'https://shop.test/?ref=ABCD1234' }],
    ['flush', undefined],
  ])('%s gets one at once, settled with what the part gives', async (name, result) => {
    const { api, attach } = loader()
    const promised = api(name)
    expect(promised).toBeInstanceOf(Promise)
    let settled = false
    void (promised as Promise<unknown>).then(() => {
      settled = true
    })
    await Promise.resolve()
    expect(settled).toBe(false)

    attach({ [name]: () => Promise.resolve(result) })
    await expect(promised).resolves.toEqual(result)
  })

  it('a getLink that waits through the first part settles when the later one brings it', async () => {
    const { api, attach } = loader()
    const promised = api('getLink') as Promise<unknown>
    attach({ track: () => true })
    attach({ getLink: () => Promise.resolve('link') })
    await expect(promised).resolves.toBe('link')
  })
})

describe('the tracking part cannot run', () => {
  it('flush() resolves, getLink() and diagnose() reject with why; the other calls wait for the next try', async () => {
    const log: string[] = []
    const { api, attach, refuse } = loader()
    api('track', 'signup', 'dana')
    const flushed = api('flush') as Promise<unknown>
    const link = api('getLink') as Promise<unknown>
    const report = api('diagnose') as Promise<unknown>
    const failure = new Error('The widget file referral-widget-tracking.js did not load.')
    refuse(failure)
    await expect(flushed).resolves.toBeUndefined()
    await expect(link).rejects.toBe(failure)
    await expect(report).rejects.toBe(failure)

    // The part comes on a later try: the sign-up runs then, the settled calls do not run again.
    attach(recording(log, ['track', 'flush', 'getLink', 'diagnose']))
    expect(log).toEqual(['track:signup,dana'])
  })
})

describe('on() before the tracking part', () => {
  /** A part whose on() adds to `listeners` and gives the function that removes the listener. */
  function partWithListeners() {
    const listeners = new Set<unknown>()
    const methods: Methods = {
      on: (_name, listener) => {
        listeners.add(listener)
        return () => listeners.delete(listener)
      },
    }
    return { listeners, methods }
  }

  it('the listener is added when the part comes, and the unsubscribe removes it', () => {
    const { api, attach } = loader()
    const listener = () => {}
    const off = api('on', 'event:queued', listener) as () => void
    expect(typeof off).toBe('function')

    const part = partWithListeners()
    attach(part.methods)
    expect([...part.listeners]).toEqual([listener])
    off()
    expect(part.listeners.size).toBe(0)
  })

  it('unsubscribed before the part comes: the listener is never added', () => {
    const { api, attach } = loader()
    const off = api('on', 'event:queued', () => {}) as () => void
    off()
    const part = partWithListeners()
    attach(part.methods)
    expect(part.listeners.size).toBe(0)
  })

  it("hears what the loader announces, by name, until it unsubscribes; the part's emitter after", () => {
    const { api, attach, announce } = loader()
    const heard: string[] = []
    api('on', 'event:dropped', (payload: { reason: string }) => heard.push(`a:${payload.reason}`))
    const off = api('on', 'event:dropped', () => heard.push('b')) as () => void
    api('on', 'event:queued', () => heard.push('queued'))
    announce('event:dropped', { reason: 'overflow' })
    off()
    announce('event:dropped', { reason: 'overflow' })
    expect(heard).toEqual(['a:overflow', 'b', 'a:overflow'])

    attach(partWithListeners().methods)
    announce('event:dropped', { reason: 'overflow' })
    expect(heard).toHaveLength(3)
  })

  it('a listener that throws is reported, and the others still hear it', () => {
    const { api, announce } = loader()
    const heard: string[] = []
    api('on', 'event:dropped', () => {
      throw new Error('the page broke')
    })
    api('on', 'event:dropped', () => heard.push('heard'))
    expect(() => announce('event:dropped', {})).not.toThrow()
    expect(heard).toEqual(['heard'])
    expect(referralErrors()).toEqual(['[referral] the page broke'])
  })
})

describe('bad calls', () => {
  it('a method that throws is reported with [referral], never thrown to the caller', () => {
    const { api, attach } = loader()
    attach({
      track: () => {
        throw new Error('userId="a b" is refused')
      },
    })
    let result: unknown = 'not called'
    expect(() => {
      result = api('track', 'signup', 'a b')
    }).not.toThrow()
    expect(result).toBeUndefined()
    expect(referralErrors()).toEqual(['[referral] userId="a b" is refused'])
  })

  it('a waiting call that throws is reported, and the calls after it still run', () => {
    const log: string[] = []
    const { api, attach } = loader()
    api('identify', 'a b')
    api('track', 'signup', 'carol')
    const methods = recording(log, ['track'])
    methods.identify = () => {
      throw new Error('bad user id')
    }
    expect(() => attach(methods)).not.toThrow()
    expect(log).toEqual(['track:signup,carol'])
    expect(referralErrors()).toEqual(['[referral] bad user id'])
  })

  it.each([
    ['an unknown name', 'launchRockets'],
    ['an inherited name', 'toString'],
    ['__proto__', '__proto__'],
  ])('%s: reported, undefined, never asked of the loader nor run later', (_, name) => {
    const { api, attach, asked } = loader()
    expect((api as CommandApi)(name)).toBeUndefined()
    expect(asked).toEqual([])
    const log: string[] = []
    attach(recording(log, ['track']))
    expect(log).toEqual([])
    const errors = referralErrors()
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatch(new RegExp(`^\\[referral\\] Referral\\("${name}"\\) is not a method`))
  })
})

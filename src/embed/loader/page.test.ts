// @vitest-environment happy-dom
// What the loader reads of the page and of the widget's storage (loader/page.ts): whether the
// address carries a referral, what is stored in its namespace, and the records it keeps for the
// tracking part, which reads them back as written, up to MAX_KEPT waiting at once.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { HANDOFF_PARAM } from '../../api/handoff.ts'
import { keptKey, keptText, MAX_KEPT, takeKept } from '../../core/kept.ts'
import { createSafeStorage, type StorageLike } from '../../queue/storage.ts'
import { referralIn, stored } from './page.ts'

const NS = 'referral:test:abc123:'
const CODE = 'ABCD1234'

/** A fresh copy of the module: keep() counts this page's records and its room once per page. */
const freshPage = async () => {
  vi.resetModules()
  return import('./page.ts')
}

/** What the tracking part would take from the page's storage now. */
const taken = () => takeKept(createSafeStorage(localStorage, { quiet: true }), NS)

/** Records another page kept and never handed over. */
function keptElsewhere(count: number) {
  const text = keptText('click', [CODE]) ?? ''
  for (let n = 0; n < count; n++) localStorage.setItem(keptKey(NS, 42, n), text)
}

/**
 * The page's localStorage with some of its calls replaced (happy-dom's own cannot be spied on and
 * restored: its methods are bound to it by a proxy that hides them).
 */
function storageWith(replaced: Partial<StorageLike>) {
  const real = localStorage
  vi.stubGlobal('localStorage', {
    get length() {
      return real.length
    },
    key: (index: number) => real.key(index),
    getItem: (key: string) => real.getItem(key),
    setItem: (key: string, value: string) => real.setItem(key, value),
    removeItem: (key: string) => real.removeItem(key),
    ...replaced,
  } satisfies StorageLike)
}

const quotaError = () => new DOMException('The quota has been exceeded.', 'QuotaExceededError')

beforeEach(() => {
  localStorage.clear()
})

afterEach(() => {
  vi.unstubAllGlobals()
  vi.useRealTimers()
})

describe('referralIn', () => {
  it.each([
    ['a code in ?ref', `https://shop.test/?ref=${CODE}`, ['ref']],
    ['a code beside other parameters', `https://shop.test/p?utm=x&ref=${CODE}#top`, ['ref']],
    ['a code in a custom parameter', `https://shop.test/?via=${CODE}`, ['ref', 'via']],
    ['a hand-off', `https://shop.test/?${HANDOFF_PARAM}=h1.anything`, ['ref']],
    ['a hand-off of any value', `https://shop.test/?${HANDOFF_PARAM}=`, ['ref']],
  ])('sees %s', (_, href, params) => {
    expect(referralIn(href, params)).toBe(true)
  })

  it.each([
    ['no parameter', 'https://shop.test/', ['ref']],
    ['a code too short', 'https://shop.test/?ref=abc', ['ref']],
    ['a code with a dash', 'https://shop.test/?ref=ABCD-1234', ['ref']],
    ['a code in a parameter not configured', `https://shop.test/?via=${CODE}`, ['ref']],
    ['a code in the fragment', `https://shop.test/#ref=${CODE}`, ['ref']],
    ['an address that is no URL', `/?ref=${CODE}`, ['ref']],
    ['an empty address', '', ['ref']],
  ])('sees none with %s', (_, href, params) => {
    expect(referralIn(href, params)).toBe(false)
  })
})

describe('stored', () => {
  it('in an empty storage: nothing', () => {
    expect(stored(NS)).toEqual({ toSend: false, kept: 0, held: false, any: false })
  })

  it('events waiting to be sent', () => {
    localStorage.setItem(`${NS}q:tab1`, '[]')
    expect(stored(NS)).toEqual({ toSend: true, kept: 0, held: false, any: true })
  })

  it('records kept by a page that closed: work to send, counted', () => {
    keptElsewhere(3)
    expect(stored(NS)).toEqual({ toSend: true, kept: 3, held: false, any: true })
  })

  it('a referral held', () => {
    localStorage.setItem(`${NS}attribution`, '{}')
    expect(stored(NS)).toEqual({ toSend: false, kept: 0, held: true, any: true })
  })

  it('any other key of the widget: something to erase, nothing to send', () => {
    localStorage.setItem(`${NS}visitor`, '{}')
    expect(stored(NS)).toEqual({ toSend: false, kept: 0, held: false, any: true })
  })

  it("another namespace's keys and the page's own are not the widget's here", () => {
    const other = 'referral:live:abc123:'
    localStorage.setItem(`${other}q:tab1`, '[]')
    localStorage.setItem(`${other}attribution`, '{}')
    localStorage.setItem(keptKey(other, 1, 0), keptText('click', [CODE]) ?? '')
    localStorage.setItem('theme', 'dark')
    expect(stored(NS)).toEqual({ toSend: false, kept: 0, held: false, any: false })
  })

  it('where storage cannot be listed: nothing is known', () => {
    localStorage.setItem(`${NS}attribution`, '{}')
    storageWith({
      key: () => {
        throw new DOMException('The operation is insecure.', 'SecurityError')
      },
    })
    expect(stored(NS)).toEqual({ toSend: false, kept: 0, held: false, any: false })
  })
})

describe('keep', () => {
  it('writes records the tracking part reads back as they were, in order', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 })
    const { keep } = await freshPage()
    const href = `https://shop.test/?ref=${CODE}`
    expect(keep(NS, 'arrive', [href])).toBe(true)
    expect(keep(NS, 'signup', ['alice', undefined])).toBe(true)
    expect(keep(NS, 'click', [CODE])).toBe(true)

    const records = taken()
    expect(records.map(({ id: _, page: __, ...record }) => record)).toEqual([
      { type: 'arrive', href, at: 1_700_000_000_000, n: 0 },
      { type: 'signup', properties: { userId: 'alice' }, at: 1_700_000_000_000, n: 1 },
      { type: 'click', properties: { code: CODE }, at: 1_700_000_000_000, n: 2 },
    ])
    for (const record of records) expect(record.page).toBe(performance.timeOrigin)
  })

  it('what keep wrote, stored() counts as work to send', async () => {
    const { keep } = await freshPage()
    keep(NS, 'click', [CODE])
    expect(stored(NS)).toMatchObject({ toSend: true, kept: 1, any: true })
  })

  it('keeps nothing the record cannot carry', async () => {
    const { keep } = await freshPage()
    expect(keep(NS, 'signup', ['alice smith', undefined])).toBe(false)
    expect(keep(NS, 'purchase', [CODE])).toBe(false)
    expect(localStorage.length).toBe(0)
  })

  it('is false when storage refuses the write', async () => {
    const { keep } = await freshPage()
    storageWith({
      setItem: () => {
        throw quotaError()
      },
    })
    expect(keep(NS, 'click', [CODE])).toBe(false)
    expect(localStorage.length).toBe(0)
  })

  it('is false when storage drops the write without saying so', async () => {
    const { keep } = await freshPage()
    storageWith({ setItem: () => {} })
    expect(keep(NS, 'click', [CODE])).toBe(false)
    expect(localStorage.length).toBe(0)
  })

  it('drops a record when MAX_KEPT records wait already, the queue’s own bound: each named for event:dropped, said once', async () => {
    expect(MAX_KEPT).toBe(1000)
    keptElsewhere(MAX_KEPT)
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const { keep } = await freshPage()
    const answers = [1, 2, 3].map(() => keep(NS, 'click', [CODE]))
    expect(answers).toEqual(['dropped_0', 'dropped_1', 'dropped_2'])
    expect(stored(NS).kept).toBe(MAX_KEPT)
    expect(warn.mock.calls).toEqual([
      ['[referral] 1000 calls wait for the widget to load: more are dropped (event:dropped).'],
    ])
    // Within the widget's storage budget all the same (about 300,000 characters).
    let chars = 0
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i) ?? ''
      chars += key.length + (localStorage.getItem(key) ?? '').length
    }
    expect(chars).toBeLessThan(100_000)
  })

  it('fills what room is left, then keeps no more', async () => {
    keptElsewhere(MAX_KEPT - 2)
    const { keep } = await freshPage()
    expect([1, 2, 3].map(() => keep(NS, 'click', [CODE]))).toEqual([true, true, expect.any(String)])
    expect(stored(NS).kept).toBe(MAX_KEPT)
  })

  it('a refused write takes no room', async () => {
    keptElsewhere(MAX_KEPT - 1)
    const { keep } = await freshPage()
    let refuse = true
    const real = localStorage
    storageWith({
      setItem: (key, value) => {
        if (refuse) throw quotaError()
        real.setItem(key, value)
      },
    })
    expect(keep(NS, 'click', [CODE])).toBe(false)
    refuse = false
    expect(keep(NS, 'click', [CODE])).toBe(true)
    expect(keep(NS, 'click', [CODE])).toEqual(expect.any(String))
  })

  it("this page's records are numbered on, never over one another", async () => {
    const { keep } = await freshPage()
    keep(NS, 'click', [CODE])
    keep(NS, 'signup', ['alice', CODE])
    keep(NS, 'signup', ['bob', CODE])
    expect(localStorage.length).toBe(3)
    const said = taken().map((record) => (record.type === 'arrive' ? '' : record.properties))
    expect(said).toEqual([
      { code: CODE },
      { userId: 'alice', code: CODE },
      { userId: 'bob', code: CODE },
    ])
  })
})

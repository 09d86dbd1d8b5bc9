// The widget's storage in a hostile page (WIDGET.md sections 4 and 9): a read that fails once,
// 30 % of storage calls failing, 30,000 events tracked offline, and storage blocked altogether.
// The service's request log and stats are the judge: every kept event accepted exactly once,
// every event that fell off a bound announced, the host's own storage left room.
import type { BrowserContext, Page } from 'playwright-core'
import { expect, it } from 'vitest'
import { FAST, useHarness } from './support/harness.ts'
import { flush, heard, recorder, signups, widgetChars } from './support/hostile.ts'
import { queueSize, READY_ROOT, waitForApi } from './support/in-page.ts'
import { widgetPage } from './support/widget-page.ts'

const h = useHarness()

const allOnce = (counts: Map<string, number>) => [...counts.values()].every((n) => n === 1)

/** Takes the context offline, and waits until the page knows. */
async function offline(context: BrowserContext, page: Page) {
  await context.setOffline(true)
  await expect.poll(() => page.evaluate(() => navigator.onLine), FAST).toBe(false)
}

/** An init script: the first `getItem` of a key holding queued events throws, once. */
function hiccupOnce() {
  const getItem = Storage.prototype.getItem
  const state = { left: 1 }
  ;(window as unknown as { __hiccup: typeof state }).__hiccup = state
  Storage.prototype.getItem = function (this: Storage, key: string) {
    if (state.left > 0 && String(key).includes(':q:')) {
      state.left -= 1
      throw new DOMException(
        'The operation failed for an unknown transient reason.',
        'UnknownError',
      )
    }
    return getItem.call(this, key)
  }
}

/**
 * An init script: every Storage call (getItem, setItem, removeItem, key, length) throws with
 * probability `rate`, drawn from a generator seeded with `seed`. `window.__storageFails.on`
 * switches the failures off while a test reads.
 */
function flakyStorage({ seed, rate }: { seed: number; rate: number }) {
  let state = seed >>> 0
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const switchable = { on: true }
  ;(window as unknown as { __storageFails: typeof switchable }).__storageFails = switchable
  const fail = () => {
    if (switchable.on && random() < rate)
      throw new DOMException(
        'The operation failed for an unknown transient reason.',
        'UnknownError',
      )
  }
  const proto = Storage.prototype as unknown as Record<string, (...args: unknown[]) => unknown>
  for (const name of ['getItem', 'setItem', 'removeItem', 'key']) {
    const original = proto[name]
    if (!original) continue
    proto[name] = function (this: Storage, ...args: unknown[]) {
      fail()
      return original.apply(this, args)
    }
  }
  const length = Object.getOwnPropertyDescriptor(Storage.prototype, 'length')?.get
  Object.defineProperty(Storage.prototype, 'length', {
    configurable: true,
    enumerable: true,
    get(this: Storage) {
      fail()
      return length?.call(this)
    },
  })
}

it('one getItem that throws on the next page load is not corruption: 25 of 25 accepted once', async () => {
  // A panel page: the tracking part runs before the page goes offline, so the queue stores them.
  const url = h.host.page('/', { html: widgetPage(h.service, { before: recorder() }) })
  const context = await h.newContext()
  const first = await h.open(context)
  await first.page.goto(url)
  await first.page.locator(READY_ROOT).waitFor()
  await offline(context, first.page)
  const users = Array.from({ length: 25 }, (_, i) => `hiccup${i}`)
  await signups(first.page, users)
  await expect.poll(() => queueSize(first.page), FAST).toBe(25)
  const { queued } = await heard(first.page)
  await first.page.close()
  await context.setOffline(false)

  const { page } = await h.open(context)
  await page.addInitScript(hiccupOnce)
  await page.goto(url)
  await waitForApi(page)
  await expect
    .poll(() => h.acceptedCounts().size, {
      interval: 100,
      timeout: 12_000,
      message: 'events accepted by the service',
    })
    .toBe(25)
  expect(
    await page.evaluate(() => (window as unknown as { __hiccup: { left: number } }).__hiccup.left),
    'the read threw',
  ).toBe(0)
  expect(new Set(h.acceptedCounts().keys())).toEqual(new Set(queued))
  expect(allOnce(h.acceptedCounts())).toBe(true)
  expect((await heard(page)).dropped).toEqual([])
  await expect.poll(() => queueSize(page), FAST).toBe(0)
})

it('with 30 % of storage calls failing, 81 of 81 signups are accepted once, none dropped', async () => {
  const url = h.host.page('/', {
    html: widgetPage(h.service, { panel: false, before: recorder() }),
  })
  const context = await h.newContext()
  await context.addInitScript(flakyStorage, { seed: 30, rate: 0.3 })
  const { page } = await h.open(context)
  await page.goto(url)
  await waitForApi(page)
  // The page tracks a signup every 50 ms, across several sends.
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const referral = (window as unknown as { Referral: (...args: unknown[]) => unknown })
          .Referral
        let n = 0
        const timer = setInterval(() => {
          referral('track', 'signup', { userId: `flaky${n}` })
          n += 1
          if (n === 81) {
            clearInterval(timer)
            resolve()
          }
        }, 50)
      }),
  )
  expect((await heard(page)).queued).toHaveLength(81)

  // Explicit tries instead of the backoff's and the re-reads' timers.
  await expect
    .poll(
      async () => {
        await flush(page)
        return h.acceptedCounts().size
      },
      { interval: 200, timeout: 12_000, message: 'events accepted by the service' },
    )
    .toBe(81)
  expect(allOnce(h.acceptedCounts())).toBe(true)
  expect(new Set(h.acceptedCounts().keys())).toEqual(new Set((await heard(page)).queued))
  expect((await heard(page)).dropped).toEqual([])
})

it('30,000 events tracked offline: the widget keeps to its budget, the host can still store 200 KB, what fell off is announced, the rest accepted once', async () => {
  // A panel page: the tracking part runs before the page goes offline, so the queue stores them.
  const url = h.host.page('/', { html: widgetPage(h.service, { before: recorder() }) })
  const context = await h.newContext()
  const { page } = await h.open(context)
  await page.goto(url)
  await page.locator(READY_ROOT).waitFor()
  await offline(context, page)
  for (let task = 0; task < 30; task++) {
    await page.evaluate((from) => {
      const referral = (window as unknown as { Referral: (...args: unknown[]) => unknown }).Referral
      for (let i = from; i < from + 1000; i++)
        referral('track', 'signup', { userId: `offline${i}` })
    }, task * 1000)
  }

  // Soft: a widget over its budget also shows what that does to the host's own write.
  expect
    .soft(await widgetChars(page), "characters under the widget's referral: keys")
    .toBeLessThanOrEqual(300_000)
  const hostWrite = await page.evaluate(() => {
    try {
      localStorage.setItem('host:cart', 'x'.repeat(200_000))
      return 'stored'
    } catch (failure) {
      return String(failure)
    }
  })
  expect(hostWrite, "the host's own 200 KB write").toBe('stored')
  const { queued, dropped } = await heard(page)
  expect(queued).toHaveLength(30_000)
  expect(dropped.length).toBeGreaterThan(0)
  expect(new Set(dropped.map(({ reason }) => reason))).toEqual(new Set(['overflow']))
  const waiting = await queueSize(page)
  expect(dropped.length + waiting).toBe(30_000)

  await context.setOffline(false)
  await expect.poll(() => h.acceptedCounts().size, { interval: 100, timeout: 10_000 }).toBe(waiting)
  const gone = new Set(dropped.map(({ id }) => id))
  expect(new Set(h.acceptedCounts().keys())).toEqual(new Set(queued.filter((id) => !gone.has(id))))
  expect(allOnce(h.acceptedCounts())).toBe(true)
  await expect.poll(() => queueSize(page), FAST).toBe(0)
})

it('storage blocked: a ?ref= arrival and five reloads count one click', async () => {
  const code = await h.linkCode('alice')
  const url = h.host.page('/landing', {
    html: widgetPage(h.service, { panel: false, attributes: { 'clean-url': 'false' } }),
  })
  const context = await h.newContext()
  // As blocked cookies do: touching either storage throws.
  await context.addInitScript(() => {
    for (const name of ['localStorage', 'sessionStorage'])
      Object.defineProperty(window, name, {
        configurable: true,
        get() {
          throw new DOMException('Access is denied for this document.', 'SecurityError')
        },
      })
  })
  const { page } = await h.open(context)
  await page.goto(`${url}?ref=${code}`)
  await waitForApi(page)
  await flush(page)
  await expect.poll(async () => (await h.stats()).totalClicks, FAST).toBe(1)

  for (let reload = 0; reload < 5; reload++) {
    await page.reload()
    expect(page.url()).toContain(`ref=${code}`)
    await waitForApi(page)
    await flush(page)
  }
  expect((await h.stats()).totalClicks, 'clicks counted for one visitor').toBe(1)
})

// The loader's bound in each engine, on a page that stays offline to the end (its tracking part is
// never asked for): 30,000 sign-ups in 30 tasks keep 1,000 in storage, well within the widget's
// budget, and the listener the page attached through the stub hears each of the other 29,000
// dropped (`overflow`) in the task that made it.
import { expect, it } from 'vitest'
import { STUB } from '../e2e/support/widget-page.ts'
import { useEngine } from './support/harness.ts'
import { enginePage, queueSize } from './support/in-page.ts'

const h = useEngine()

/** The browser says it is offline (as each engine does when the network goes), from the start. */
const OFFLINE = `<script>Object.defineProperty(Navigator.prototype,'onLine',{get:function(){return false}})</script>`
const LISTENER = `<script>${STUB};window.__dropped=[];Referral('on','event:dropped',function(e){window.__dropped.push([e.reason,e.event.id,e.event.userId])})</script>`

it('offline to the end: 1,000 of 30,000 sign-ups kept, the other 29,000 heard as dropped when made', async () => {
  h.host.page('/app', {
    html: enginePage(h.service, { panel: false, head: OFFLINE, before: LISTENER }),
  })
  const tab = await h.visit(`${h.host.url}/app`)
  await expect.poll(() => queueSize(tab).catch(() => -1)).toBe(0)

  for (let task = 0; task < 30; task++) {
    const heard = await tab.evaluate((from) => {
      const referral = (window as unknown as { Referral: (...args: unknown[]) => unknown }).Referral
      for (let n = from; n < from + 1000; n++) referral('track', 'signup', { userId: `user-${n}` })
      return (window as unknown as { __dropped: unknown[] }).__dropped.length
    }, task * 1000)
    expect(heard).toBe(task * 1000)
  }
  const summary = await tab.evaluate(() => {
    const dropped = (window as unknown as { __dropped: [string, string, string][] }).__dropped
    let chars = 0
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i) ?? ''
      chars += key.length + (localStorage.getItem(key) ?? '').length
    }
    return {
      reasons: [...new Set(dropped.map((drop) => drop[0]))],
      ids: new Set(dropped.map((drop) => drop[1])).size,
      users: [dropped[0]?.[2], dropped.at(-1)?.[2]],
      chars,
    }
  })
  expect(summary).toMatchObject({ reasons: ['overflow'], ids: 29_000 })
  expect(summary.users).toEqual(['user-1000', 'user-29999'])
  expect(summary.chars).toBeLessThan(100_000)
  expect(await queueSize(tab)).toBe(1000)
  expect(h.service.requests.map((request) => request.path)).toEqual(['/referral-widget.js'])
})

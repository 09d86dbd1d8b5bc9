// A tracking part that cannot load, in each engine: the site serves the loader itself and not the
// files beside it (an upload left half done; a blocker answers the same way). Nothing the page
// awaits is left pending: flush() resolves (the sign-up waits in storage for a page that has the
// part), getLink() and diagnose() reject naming the file, and no error reaches the page.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { useEngine } from './support/harness.ts'
import { call, enginePage } from './support/in-page.ts'

const h = useEngine()

const LOADER = readFileSync(join(import.meta.dirname, '../../dist/referral-widget.js'), 'utf8')

it('flush() resolves and getLink() and diagnose() reject naming the file: no promise pending', async () => {
  h.host.page('/w/referral-widget.js', { html: LOADER, type: 'text/javascript' })
  const url = h.host.page('/checkout', {
    html: enginePage(h.service, {
      panel: false,
      src: '/w/referral-widget.js',
      attributes: { api: h.service.url, 'user-id': 'alice' },
    }),
  })
  const tab = await h.visit(url)
  expect(await call(tab, 'track', 'signup', { userId: 'dana' })).toBe(true)
  const settled = await tab.evaluate(() => {
    const referral = (window as unknown as { Referral: Record<string, () => Promise<unknown>> })
      .Referral
    return Promise.all(
      ['flush', 'getLink', 'diagnose'].map((name) =>
        (referral[name] as () => Promise<unknown>)().then(
          () => `${name}: resolved`,
          (error: Error) => `${name}: ${error.message}`,
        ),
      ),
    )
  })
  const missing =
    'The widget could not be loaded from referral-widget-tracking-delivery.js beside the script.'
  expect(settled).toEqual(['flush: resolved', `getLink: ${missing}`, `diagnose: ${missing}`])
  expect(await call(tab, 'queueSize')).toBe(1)
})

// A tag pinned by Subresource Integrity, in each engine: the loader asks for the pins file first,
// then loads every file by the hash it carries; the panel shows and the arrival counts, and no
// file the widget added runs without its hash.
import { expect, it } from 'vitest'
import { pinnedTag } from '../e2e/support/widget-page.ts'
import { useEngine } from './support/harness.ts'
import { enginePage, panel } from './support/in-page.ts'

const h = useEngine()

it('loads the pins file first, then each file by its hash: the panel shows, the click counts', async () => {
  const code = await h.linkCode('alice')
  const url = h.host.page('/', {
    html: enginePage(h.service, {
      scriptAttributes: pinnedTag(),
      // A friend of alice's, in their own browser, whose panel shows their own link.
      attributes: { 'user-id': 'dave' },
    }),
  })
  const tab = await h.visit(`${url}?ref=${code}`)
  await expect
    .poll(() => panel(tab))
    .toMatchObject({ state: 'ready', link: expect.stringMatching(/\?ref=/) })
  await expect.poll(() => h.stats()).toMatchObject({ totalClicks: 1 })
  const scripts = await tab.evaluate(() =>
    Array.from(
      document.querySelectorAll<HTMLScriptElement>('script[src*="referral-widget"]'),
      (s) => [new URL(s.src).pathname, s.integrity.split('-')[0] ?? ''],
    ),
  )
  expect(scripts).toEqual(
    expect.arrayContaining([
      ['/referral-widget.js', 'sha384'],
      ['/referral-widget-pins.js', 'sha256'],
      ['/referral-widget-tracking-delivery.js', 'sha256'],
    ]),
  )
  expect(scripts.filter(([, algorithm]) => algorithm === '')).toEqual([])
})

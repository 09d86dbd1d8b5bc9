// A site upgrading in place, in each engine: a visitor's page still runs the previous build's
// loader (cached) while the site serves the next build's files beside it. No uncaught error, no
// file of the next build runs beside the previous loader, and what the page recorded (an arrival
// through a link, a sign-up) is accepted once each when a page of the next build has run.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, expect, it } from 'vitest'
import { DIST, nextBuild, scriptFilesOf } from '../e2e/support/two-builds.ts'
import { STUB } from '../e2e/support/widget-page.ts'
import { useEngine } from './support/harness.ts'
import { apiLoaded, call, enginePage } from './support/in-page.ts'

const h = useEngine()
let next = ''
beforeAll(() => {
  next = nextBuild()
}, 120_000)

/** The loader of one build and the other files of another under /<name>/ on the host site. */
function mix(name: string, loader: string, parts: string, before = '') {
  for (const file of scriptFilesOf(DIST))
    h.host.page(`/${name}/${file}`, {
      html: readFileSync(join(file === 'referral-widget.js' ? loader : parts, file), 'utf8'),
      type: 'text/javascript; charset=utf-8',
    })
  return h.host.page(`/${name}/page`, {
    html: enginePage(h.service, {
      panel: false,
      src: `/${name}/referral-widget.js`,
      attributes: { api: h.service.url },
      before,
    }),
  })
}

it('the previous loader with the next files: nothing of the next build runs, and all is accepted once on the next build’s page', async () => {
  const code = await h.linkCode('alice')
  const mixed = mix(
    'mixed',
    DIST,
    next,
    `<script>${STUB};Referral('track', 'signup', { userId: 'carol' })</script>`,
  )
  const upgraded = mix('upgraded', next, next)
  const tab = await h.visit(`${mixed}?ref=${code}`)
  await expect.poll(() => apiLoaded(tab)).toBe(true)
  // The next build's tracking part came before the page's load event (a script added before it
  // holds it back), and did not run: it published nothing.
  expect(await tab.evaluate(() => Symbol.for('referral-widget.runtime') in globalThis)).toBe(false)
  expect(h.acceptedCounts().size).toBe(0)

  await tab.goto(upgraded)
  await expect.poll(() => apiLoaded(tab)).toBe(true)
  await call(tab, 'flush')
  await expect
    .poll(() => h.stats())
    .toEqual({ totalClicks: 1, totalConversions: 1, totalRewardsIssued: 2 })
  expect([...h.acceptedCounts().values()]).toEqual([1, 1])
})

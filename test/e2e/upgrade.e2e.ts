// A page mid-upgrade, in Chromium: two real builds that differ (support/two-builds.ts: the next one
// lists the shared modules in the opposite order, its version bumped), and every mix a page can
// get. The previous loader with the next files (a loader cached 5 minutes while the site replaced
// its files in place), the next loader with the previous files (a stale edge), the tag pinned by
// its integrity, and the previous build's files gone (404). Each time no uncaught error, no file
// of the other build runs, the console says once what happened, and the arrival and the sign-up
// the page recorded are accepted once each when a later page of one build has run.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { FAST, useHarness } from './support/harness.ts'
import { waitForApi } from './support/in-page.ts'
import { buildOf, DIST, integrityOf, nextBuild, scriptFilesOf } from './support/two-builds.ts'
import { STUB, widgetPage } from './support/widget-page.ts'

const h = useHarness()
let next = ''
beforeAll(() => {
  next = nextBuild()
}, 120_000)

/**
 * Serves a mix under /<name>/ on the host site: the loader of one build, the other files of
 * another (or none: 404), and its pages there: a landing page that signs carol up through the
 * stub before the tag runs, and a plain one.
 */
function mix(name: string, loader: string, parts: string | null, scriptAttributes = '') {
  for (const file of scriptFilesOf(DIST)) {
    const from = file === 'referral-widget.js' ? loader : parts
    if (from !== null)
      h.host.page(`/${name}/${file}`, {
        html: readFileSync(join(from, file), 'utf8'),
        type: 'text/javascript; charset=utf-8',
      })
  }
  const page = (before: string) =>
    widgetPage(h.service, {
      panel: false,
      src: `/${name}/referral-widget.js`,
      scriptAttributes,
      attributes: { api: h.service.url },
      before,
    })
  return {
    landing: h.host.page(`/${name}/landing`, {
      html: page(`<script>${STUB};Referral('track', 'signup', { userId: 'carol' })</script>`),
    }),
    welcome: h.host.page(`/${name}/welcome`, { html: page('') }),
  }
}

/** Whether the page ran a tracking part: it publishes the modules the files after it share. */
const trackingRan = (page: Page) =>
  page.evaluate(() => Symbol.for('referral-widget.runtime') in globalThis)

/** `text` as a regular expression matches it. */
const literally = (text: string) => text.replace(/[.+]/g, '\\$&')

const widgetLines = (log: { console: string[] }) =>
  log.console.filter((line) => line.includes('[referral]'))

/**
 * The mixed page, through alice's link: nothing of the other build runs, one line says why; then
 * a page of the next build alone, after which the arrival and the sign-up are each accepted once.
 */
async function mixedThenOneBuild(url: string, said: RegExp) {
  const code = await h.linkCode('alice')
  const context = await h.newContext()
  const { page, log } = await h.open(context)
  await page.goto(`${url}?ref=${code}`)
  await expect.poll(() => widgetLines(log), FAST).toHaveLength(1)
  expect(widgetLines(log)[0]).toMatch(said)
  expect(await trackingRan(page)).toBe(false)
  expect(h.acceptedCounts().size).toBe(0)

  const { welcome } = mix('one-build', next, next)
  const later = await h.open(context)
  await later.page.goto(welcome)
  await waitForApi(later.page)
  await expect
    .poll(() => h.stats(), FAST)
    .toEqual({ totalClicks: 1, totalConversions: 1, totalRewardsIssued: 2 })
  expect([...h.acceptedCounts().values()]).toEqual([1, 1])
  expect(widgetLines(later.log)).toEqual([])
  expect([...log.errors, ...later.log.errors]).toEqual([])
}

describe('a page mixing two builds', () => {
  it('the previous loader with the next files: they do not run, and the console names both builds', async () => {
    const { landing } = mix('previous-loader', DIST, next)
    await mixedThenOneBuild(
      landing,
      new RegExp(
        `^warning: \\[referral\\] A file of build ${literally(buildOf(next))} does not run beside the loader of build ${literally(buildOf(DIST))}`,
      ),
    )
  })

  it('the next loader with the previous files: they do not run, and the console names both builds', async () => {
    const { landing } = mix('next-loader', next, DIST)
    await mixedThenOneBuild(
      landing,
      new RegExp(
        `^warning: \\[referral\\] A file of build ${literally(buildOf(DIST))} does not run beside the loader of build ${literally(buildOf(next))}`,
      ),
    )
  })

  it('the tag pinned by its integrity, the next files beside it: refused unrun, said once', async () => {
    const hash = integrityOf(DIST, 'referral-widget.js')
    const { landing } = mix('pinned', DIST, next, ` integrity="${hash}" crossorigin="anonymous"`)
    // The next build's pins file is the first file refused: it does not match the loader's hash.
    await mixedThenOneBuild(
      landing,
      /^error: \[referral\] The widget could not be loaded from referral-widget-pins\.js/,
    )
  })

  it('the previous build’s files gone (404): said once, and kept for the next page', async () => {
    const { landing } = mix('gone', DIST, null)
    await mixedThenOneBuild(
      landing,
      /^error: \[referral\] The widget could not be loaded from referral-widget-tracking-delivery\.js/,
    )
  })
})

it('the two builds differ: another version, the shared modules at other positions', () => {
  expect(buildOf(next)).not.toBe(buildOf(DIST))
  expect(buildOf(next).split('+')[0]).not.toBe(buildOf(DIST).split('+')[0])
})

// Going to another page of the site and pressing Back, as a visitor does, and telling whether the
// page came back from the back/forward cache: `pageshow` with `persisted`, or Chromium's own
// reasons for loading it again (`notRestoredReasons`, with
// --enable-features=BackForwardCacheSendNotRestoredReasons).
import type { Browser, Page } from 'playwright-core'

/** How a page came back: from the cache, or loaded again and why. */
export interface Return {
  restored: boolean
  /** Chromium's reasons, flattened over frames; empty when restored. */
  reasons: string[]
}

/** Records every `pageshow` of every document the page shows (an init script, so on each load). */
export async function watchShows(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const shows: boolean[] = []
    ;(window as unknown as { __shows: boolean[] }).__shows = shows
    addEventListener('pageshow', (event) => shows.push(event.persisted))
  })
}

type Reasons = { reasons?: Array<{ reason: string }>; children?: Reasons[] } | null

/** Goes to `next`, waits until `ready` says it is settled, goes back, and says how it came back. */
export async function leaveAndComeBack(
  page: Page,
  next: string,
  ready: (page: Page) => Promise<void> = async () => {},
): Promise<Return> {
  const before = await page.evaluate(
    () => (window as unknown as { __shows: boolean[] }).__shows.length,
  )
  await page.goto(next)
  await ready(page)
  // A page restored from the cache fires no load event: wait for the navigation to commit.
  await page.goBack({ waitUntil: 'commit' })
  await page.waitForFunction((count) => {
    const shows = (window as unknown as { __shows?: boolean[] }).__shows
    // Restored: one more pageshow on the same document; loaded again: a new document's first.
    return shows !== undefined && (shows.length > count || shows.length === 1)
  }, before)
  return page.evaluate(() => {
    const shows = (window as unknown as { __shows: boolean[] }).__shows
    const [entry] = performance.getEntriesByType('navigation') as Array<
      PerformanceNavigationTiming & { notRestoredReasons?: Reasons }
    >
    const flatten = (node: Reasons): string[] =>
      node
        ? [...(node.reasons ?? []).map((r) => r.reason), ...(node.children ?? []).flatMap(flatten)]
        : []
    const restored = shows.at(-1) === true
    return { restored, reasons: restored ? [] : flatten(entry?.notRestoredReasons ?? null) }
  })
}

/**
 * Whether this browser keeps pages in the back/forward cache at all, tried on two plain pages:
 * the npm package's Chromium is a headless shell, which has none (its reason:
 * BackForwardCacheDisabledForDelegate); a full Chromium (CHROMIUM_PATH=/usr/bin/chromium) has one.
 */
export async function backForwardCacheWorks(
  browser: Browser,
  plain: { first: string; second: string },
): Promise<boolean> {
  const context = await browser.newContext()
  try {
    const page = await context.newPage()
    await watchShows(page)
    await page.goto(plain.first)
    return (await leaveAndComeBack(page, plain.second)).restored
  } finally {
    await context.close()
  }
}

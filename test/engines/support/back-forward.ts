// Going to another page of the site and pressing Back, as a visitor does, and telling whether the
// page came back from the back/forward cache (`pageshow` with `persisted` on the same document)
// or was loaded again (a new document's first `pageshow`), the same in every engine; and where
// Chromium says why it loaded a page again (`notRestoredReasons`, with
// --enable-features=BackForwardCacheSendNotRestoredReasons), its reasons.
import { expect } from 'vitest'
import type { Tab } from './engine.ts'
import { apiLoaded } from './in-page.ts'

/** How a page came back: from the cache, or loaded again and why (Chromium only says why). */
export interface Return {
  restored: boolean
  reasons: string[]
}

/** Where the tab is, the `pageshow`s its document has seen, and Chromium's reasons, flattened. */
const shown = (tab: Tab) =>
  tab.evaluate(() => {
    type Reasons = { reasons?: Array<{ reason: string }>; children?: Reasons[] } | null
    const flatten = (node: Reasons): string[] =>
      node
        ? [...(node.reasons ?? []).map((r) => r.reason), ...(node.children ?? []).flatMap(flatten)]
        : []
    const [entry] = performance.getEntriesByType('navigation') as Array<
      PerformanceNavigationTiming & { notRestoredReasons?: Reasons }
    >
    return {
      path: location.pathname,
      shows: (window as unknown as { __shows?: boolean[] }).__shows ?? [],
      reasons: flatten(entry?.notRestoredReasons ?? null),
    }
  })

/**
 * Goes to `next` (a page that runs the widget too), waits until its widget runs, goes back, and
 * says whether the page was restored from the cache.
 */
export async function leaveAndComeBack(tab: Tab, next: string): Promise<Return> {
  const before = await shown(tab)
  await tab.goto(next)
  await expect.poll(() => apiLoaded(tab)).toBe(true)
  await tab.back()
  // Restored: one more pageshow on the same document; loaded again: a new document's first.
  await expect
    .poll(async () => {
      const now = await shown(tab)
      return (
        now.path === before.path &&
        (now.shows.length > before.shows.length || now.shows.length === 1)
      )
    })
    .toBe(true)
  const back = await shown(tab)
  const restored = back.shows.at(-1) === true
  return { restored, reasons: restored ? [] : back.reasons }
}

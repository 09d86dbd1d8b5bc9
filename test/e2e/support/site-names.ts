// More host names for the host site, each its own origin: Chromium maps them to loopback
// (`--host-resolver-rules`), so one local server is several subdomains or registrable domains.
import type { BrowserContext, Page } from 'playwright-core'
import { type Harness, useHarness } from './harness.ts'
import { waitForApi } from './in-page.ts'

/** Registers the harness with `names` mapped to loopback; `on` gives a page's address there. */
export function useSiteNames(names: readonly string[]) {
  const rules = names.map((name) => `MAP ${name} 127.0.0.1`).join(', ')
  const h: Harness = useHarness({ launchArgs: [`--host-resolver-rules=${rules}`] })

  /** The host site's `path` under another of its names (the same server on loopback). */
  function on(name: string, path: string): string {
    const origin = `http://${name}:${new URL(h.host.url).port}`
    h.allow(origin)
    return `${origin}${path}`
  }

  /** A new watched page in `context` at `url`, once the widget's API is in place. */
  async function visit(context: BrowserContext, url: string): Promise<Page> {
    const { page } = await h.open(context)
    await page.goto(url)
    await waitForApi(page)
    return page
  }

  return { h, on, visit }
}

/** `Referral.flush()` in the page: resolves once what was queued has been offered. */
export const flush = (page: Page) =>
  page.evaluate(() =>
    (window as unknown as { Referral: { flush(): Promise<void> } }).Referral.flush(),
  )

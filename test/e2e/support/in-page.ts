// What the tests read and call inside a page the widget runs in: the panel once ready, the command
// API (called, awaited, its queue), what the widget keeps in localStorage, and the event ids a
// request to the service carried, and a page swapped without a reload.
import type { Page } from 'playwright-core'
import { isRecord } from './harness.ts'

/** The panel's root, once the campaign has loaded. */
export const READY_ROOT = '[data-part="root"][data-state="ready"]'

/** Runs `Referral(...)` in the page (after the script has loaded). */
export async function callReferral(page: Page, ...args: unknown[]): Promise<unknown> {
  return page.evaluate((callArgs) => {
    const referral = (window as unknown as { Referral: (...a: unknown[]) => unknown }).Referral
    return referral(...callArgs)
  }, args)
}

/** Waits until window.Referral is the loaded command API (it has methods). */
export async function waitForApi(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const referral = (window as unknown as { Referral?: { queueSize?: unknown } }).Referral
    return typeof referral?.queueSize === 'function'
  })
}

export async function queueSize(page: Page): Promise<number> {
  return page.evaluate(() => {
    const referral = (window as unknown as { Referral: { queueSize(): number } }).Referral
    return referral.queueSize()
  })
}

/** Every localStorage key and value of the page's origin. */
export async function storageEntries(page: Page): Promise<Record<string, string>> {
  return page.evaluate(() => {
    const entries: Record<string, string> = {}
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i)
      if (key !== null) entries[key] = localStorage.getItem(key) ?? ''
    }
    return entries
  })
}

/** The event ids in a POST /v1/events body (JSON or beacon form). */
export function eventIdsOf(body: string | null): string[] {
  if (body === null) return []
  try {
    const parsed: unknown = JSON.parse(body)
    if (!isRecord(parsed) || !Array.isArray(parsed.events)) return []
    return parsed.events.flatMap((event: unknown) =>
      isRecord(event) && typeof event.id === 'string' ? [event.id] : [],
    )
  } catch {
    return []
  }
}

/**
 * What Turbo Drive does on a link: fetch the next page, swap its body in, run each of its
 * scripts again (a fresh <script> for each), and push its address.
 */
export async function visitWithoutReload(page: Page, path: string) {
  await page.evaluate(async (next) => {
    const html = await (await fetch(next)).text()
    const body = new DOMParser().parseFromString(html, 'text/html').body
    document.body.replaceWith(document.adoptNode(body))
    for (const old of document.body.querySelectorAll('script')) {
      const fresh = document.createElement('script')
      for (const { name, value } of old.attributes) fresh.setAttribute(name, value)
      fresh.text = old.text
      old.replaceWith(fresh)
    }
    history.pushState({}, '', next)
  }, path)
}

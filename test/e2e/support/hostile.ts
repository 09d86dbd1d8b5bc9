// Helpers for the hostile-page tests: what the page heard from the widget (recorded from before
// the script loads, through the documented stub), an explicit flush, and what the widget keeps in
// localStorage.
import type { Page } from 'playwright-core'
import { STUB } from './widget-page.ts'

/** What the page heard through `Referral.on`, recorded since before the script loaded. */
export interface Heard {
  queued: string[]
  dropped: Array<{ id: string; reason: string }>
}

/**
 * Markup for `before`: the documented stub under `name`, and listeners queued through it that
 * record every `event:queued` and `event:dropped` into `window.__heard`.
 */
export function recorder(name = 'Referral'): string {
  const stub = name === 'Referral' ? STUB : STUB.replaceAll('Referral', name)
  return `<script>${stub};
window.__heard = { queued: [], dropped: [] };
${name}('on', 'event:queued', function (e) { window.__heard.queued.push(e.event.id) });
${name}('on', 'event:dropped', function (e) {
  window.__heard.dropped.push({ id: e.event.id, reason: e.reason })
});
</script>`
}

export const heard = (page: Page): Promise<Heard> =>
  page.evaluate(() => (window as unknown as { __heard: Heard }).__heard)

/** `Referral.flush()`: settles once the queue has been tried (no backoff wait). */
export const flush = (page: Page): Promise<void> =>
  page.evaluate(() =>
    (window as unknown as { Referral: { flush(): Promise<void> } }).Referral.flush(),
  )

/** Tracks one signup per user id, each in its own call. */
export const signups = (page: Page, users: readonly string[]): Promise<void> =>
  page.evaluate((ids) => {
    const referral = (window as unknown as { Referral: (...args: unknown[]) => unknown }).Referral
    for (const userId of ids) referral('track', 'signup', { userId })
  }, users)

/**
 * The widget's own localStorage entries (keys starting `referral:`). A page whose storage was
 * made to fail (see `flakyStorage`) reads without failures meanwhile.
 */
export const widgetEntries = (page: Page): Promise<Array<[string, string]>> =>
  page.evaluate(() => {
    const switchable = (window as unknown as { __storageFails?: { on: boolean } }).__storageFails
    const was = switchable?.on ?? false
    if (switchable) switchable.on = false
    try {
      const entries: Array<[string, string]> = []
      for (let i = 0; i < localStorage.length; i++) {
        const name = localStorage.key(i)
        if (name?.startsWith('referral:')) entries.push([name, localStorage.getItem(name) ?? ''])
      }
      return entries
    } finally {
      if (switchable) switchable.on = was
    }
  })

/** The widget's stored queue chunks (keys `referral:…:q:…`), as text. */
export const storedChunks = async (page: Page): Promise<string[]> =>
  (await widgetEntries(page)).filter(([name]) => name.includes(':q:')).map(([, value]) => value)

/** Characters (UTF-16 code units, keys included) the widget keeps in localStorage. */
export const widgetChars = async (page: Page): Promise<number> =>
  (await widgetEntries(page)).reduce((sum, [name, value]) => sum + name.length + value.length, 0)

/** The `[referral]` warnings on the console. */
export const warnings = (console: readonly string[]): string[] =>
  console.filter((line) => line.startsWith('warning: [referral]'))

// What the engine suite puts into its pages and reads from them, the same way in every engine:
// a recorder script (the page's uncaught errors, kept in sessionStorage so a navigation does not
// lose them; each `pageshow` and whether it was a restore; CSP violations), the host page with the
// widget's tag, and the widget's state read through `evaluate` (the panel inside its shadow root).
import { type WidgetPageOptions, widgetPage } from '../../e2e/support/widget-page.ts'
import type { Tab } from './engine.ts'

/** The nonce the recorder carries: a strict CSP lets it run with `'nonce-engine'`. */
export const RECORDER_NONCE = 'engine'

const RECORDER = `<script nonce="${RECORDER_NONCE}">(function () {
  var w = window, key = 'engine:errors';
  w.__shows = []; w.__csp = [];
  function note(line) {
    try { sessionStorage.setItem(key, (sessionStorage.getItem(key) || '') + line + '\\n') } catch (e) {}
  }
  addEventListener('error', function (e) { note('error: ' + e.message) });
  addEventListener('unhandledrejection', function (e) {
    var r = e.reason; note('unhandled rejection: ' + ((r && r.message) || r))
  });
  addEventListener('pageshow', function (e) { w.__shows.push(e.persisted) });
  document.addEventListener('securitypolicyviolation', function (e) {
    w.__csp.push(e.violatedDirective + ' ' + e.blockedURI)
  });
})()</script>`

/** The recorder, first in the <head> of every HTML page a Vite server serves (the QA demo). */
export const recorderPlugin = {
  name: 'engine-recorder',
  transformIndexHtml: (html: string) => html.replace(/<head>/i, (head) => `${head}${RECORDER}`),
}

/** The host page with the widget's tag, as widgetPage builds it, the recorder first in <head>. */
export function enginePage(service: { url: string }, options: WidgetPageOptions = {}): string {
  return widgetPage(service, { ...options, head: `${RECORDER}${options.head ?? ''}` })
}

/** The uncaught errors the tab's pages of its current origin recorded. */
export const pageErrors = (tab: Tab): Promise<string[]> =>
  tab.evaluate(() => (sessionStorage.getItem('engine:errors') ?? '').split('\n').filter(Boolean))

/** Whether window.Referral is the loaded command API (it has methods). */
export const apiLoaded = (tab: Tab): Promise<boolean> =>
  tab.evaluate(() => {
    const referral = (window as unknown as { Referral?: { queueSize?: unknown } }).Referral
    return typeof referral?.queueSize === 'function'
  })

/** Runs `Referral(...args)` in the page and returns what it settles to. */
export const call = (tab: Tab, ...args: unknown[]): Promise<unknown> =>
  tab.evaluate(async (callArgs) => {
    const referral = (window as unknown as { Referral: (...a: unknown[]) => unknown }).Referral
    const result = await referral(...callArgs)
    return result === undefined ? null : result
  }, args)

export const queueSize = (tab: Tab): Promise<number> =>
  tab.evaluate(() =>
    (window as unknown as { Referral: { queueSize(): number } }).Referral.queueSize(),
  )

/** The panel as a visitor sees it: its state and the share link, or nulls before it renders. */
export const panel = (tab: Tab): Promise<{ state: string | null; link: string | null }> =>
  tab.evaluate(() => {
    const root = document.querySelector('[data-referral-widget]')?.shadowRoot
    const input = root?.querySelector('[data-part="link"]') as HTMLInputElement | null | undefined
    return {
      state: root?.querySelector('[data-part="root"]')?.getAttribute('data-state') ?? null,
      link: input?.value ?? null,
    }
  })

/** The referred visitor's banner text, or null while none shows. */
export const bannerText = (tab: Tab): Promise<string | null> =>
  tab.evaluate(() => {
    const root = document.querySelector('[data-referral-banner]')?.shadowRoot
    return root?.querySelector('[data-part="banner"]')?.textContent ?? null
  })

/** Each `pageshow` of the tab's current document: true when it was a restore from the cache. */
export const shows = (tab: Tab): Promise<boolean[] | null> =>
  tab.evaluate(() => (window as unknown as { __shows?: boolean[] }).__shows ?? null)

/** The page's address as the address bar shows it. */
export const address = (tab: Tab): Promise<string> => tab.evaluate(() => location.href)

// What the core needs from the page it runs in. Defaults read the globals at call time; in Node
// (server-side rendering, tests) every part is absent and the core does without it.
import type { LockManagerLike } from '../queue/sender.ts'

/** The page's cookies: all of them as one `a=1; b=2` text, and one `Set-Cookie`-style write. */
export interface CookieJar {
  get(): string
  set(cookie: string): void
}

export interface Host {
  /** The page's address, if there is a page. */
  href(): string | undefined
  /** Changes the address bar without a navigation (history.replaceState). */
  replaceUrl(url: string): void
  isOnline(): boolean
  /**
   * Subscribes to a window event, in the capture phase (a click is heard before the page's own
   * listeners can stop it); returns the unsubscribe function.
   */
  listen(
    name:
      | 'online'
      | 'offline'
      | 'pagehide'
      | 'pageshow'
      | 'storage'
      | 'click'
      | 'auxclick'
      | 'securitypolicyviolation',
    listener: (event: Event) => void,
  ): () => void
  locks: LockManagerLike | undefined
  sendBeacon: ((url: string, body: string) => boolean) | undefined
  /** The visitor's language, where a test or an unusual host gives it (else the browser's). */
  language?: string | undefined
  /** The visitor's Global Privacy Control signal (`navigator.globalPrivacyControl`). */
  globalPrivacyControl: boolean
  /** `document.cookie`; only used with the `cookieDomain` option. */
  cookie: CookieJar | undefined
  /** Whether this page was reloaded (the navigation's type), not reached by a link or typed. */
  reloaded: boolean
  /** This page load's own number (`performance.timeOrigin`): an arrival kept on it says so. */
  page: number | undefined
}

/**
 * The browser's language as a tag Intl takes: some systems report a POSIX locale
 * (`en_US.UTF-8`, `en-US@posix`), whose suffix would make every amount read "10 USD".
 */
export function browserLocale(reported: string | undefined): string | undefined {
  try {
    return Intl.getCanonicalLocales(reported?.split(/[.@]/)[0]?.replace(/_/g, '-'))[0]
  } catch {
    return undefined
  }
}

/** The browser's own language, as a tag Intl takes; undefined outside a browser. */
export const browserLanguage = () =>
  typeof navigator === 'undefined' ? undefined : browserLocale(navigator.language)

const hasWindow = () =>
  typeof window !== 'undefined' && typeof window.addEventListener === 'function'

export const browserHost: Host = {
  href: () => (typeof location === 'undefined' ? undefined : location.href),
  replaceUrl: (url) => {
    try {
      history.replaceState(history.state, '', url)
    } catch {}
  },
  isOnline: () => typeof navigator === 'undefined' || navigator.onLine !== false,
  listen: (name, listener) => {
    if (!hasWindow()) return () => {}
    window.addEventListener(name, listener, true)
    return () => window.removeEventListener(name, listener, true)
  },
  get locks() {
    return typeof navigator === 'undefined'
      ? undefined
      : (navigator.locks as LockManagerLike | undefined)
  },
  get sendBeacon() {
    return typeof navigator === 'undefined' || typeof navigator.sendBeacon !== 'function'
      ? undefined
      : (url: string, body: string) => navigator.sendBeacon(url, body)
  },
  get cookie() {
    return typeof document === 'undefined'
      ? undefined
      : {
          get: () => document.cookie,
          set: (cookie: string) => {
            // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is asynchronous and not in every browser the widget supports
            document.cookie = cookie
          },
        }
  },
  get reloaded() {
    try {
      const [navigation] = performance.getEntriesByType('navigation')
      return (navigation as PerformanceNavigationTiming | undefined)?.type === 'reload'
    } catch {
      return false
    }
  },
  get page() {
    return typeof performance === 'undefined' ? undefined : performance.timeOrigin
  },
  get globalPrivacyControl() {
    const page = globalThis.navigator as { globalPrivacyControl?: unknown } | undefined
    return page?.globalPrivacyControl === true
  },
}

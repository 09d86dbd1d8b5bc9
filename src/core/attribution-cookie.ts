// The attribution cookie in the page (option `cookieDomain`): the captured referral kept in one
// first-party cookie on the site's own domain, so its other subdomains and its server see it.
// Its wire form is src/api/attribution-cookie.ts; this module only reads, writes and deletes
// it through the host's cookie jar. localStorage stays the home of everything else.

import {
  ATTRIBUTION_COOKIE,
  type AttributionValue,
  attributionFromCookieHeader,
  encodeAttribution,
} from '../api/attribution-cookie.ts'
import { ConfigError } from '../shared/errors.ts'
import { DAY_MS } from '../shared/timers.ts'
import { AUTO, cookieDomainCandidates, findCookieDomain } from './cookie-domain.ts'
import type { CookieJar } from './host.ts'
import { quote } from './options.ts'

export interface AttributionCookie {
  /** The attribution in the cookie, or null (none, malformed, forged, too old). Never throws. */
  read(): AttributionValue | null
  /**
   * Writes the attribution; it expires when `windowMs` after its capture has passed. False when
   * the page refused the cookie (no jar, a sandboxed frame) or the attribution has run out.
   */
  write(attribution: AttributionValue, windowMs: number): boolean
  /** Deletes the cookie from the domain. */
  remove(): void
}

/**
 * The cookie for a page, or null where there is no page (server-side rendering) or no cookie jar.
 * Throws a ConfigError when `domain` is neither the page's host nor a parent of
 * it: the browser would silently refuse such a cookie, and the referral would be lost unseen.
 * `'auto'`: the site's registrable domain, found by the browser at the first write (never before
 * consent, since nothing is written before it).
 */
export function attributionCookie(
  domain: string,
  options: {
    jar: CookieJar | undefined
    href: string | undefined
    now: () => number
    /** The site's rule (data-attribution="first"), carried in the cookie for its server. */
    firstTouch?: boolean | undefined
  },
): AttributionCookie | null {
  const { jar, href, now } = options
  if (href === undefined) return null
  const auto = domain === AUTO
  if (!auto) checkCookieDomain(domain, href)
  if (!jar) return null
  const { protocol, hostname } = new URL(href)
  const secure = protocol === 'https:' ? '; Secure' : ''
  /** The Domain attribute; `auto` finds it at the first write (empty: a host-only cookie). */
  let scope: string | undefined = auto ? undefined : `; Domain=${domain}`
  const set = (value: string, maxAge: number, on = scope) => {
    try {
      jar.set(
        `${ATTRIBUTION_COOKIE}=${value}; Max-Age=${maxAge}${on}; Path=/; SameSite=Lax${secure}`,
      )
      return true
    } catch {
      return false // document.cookie throws in a sandboxed frame
    }
  }
  return {
    read() {
      try {
        return attributionFromCookieHeader(jar.get(), { now: now() })
      } catch {
        return null
      }
    },
    write(attribution, windowMs) {
      const maxAge = Math.ceil((Date.parse(attribution.capturedAt) + windowMs - now()) / 1000)
      if (!(maxAge > 0)) return false
      if (scope === undefined) {
        const found = findCookieDomain(hostname, jar)
        scope = found === undefined ? '' : `; Domain=${found}`
      }
      try {
        // The window and the rule go with it: the site's server keeps the referral by them.
        const rule = { windowDays: windowMs / DAY_MS, firstTouch: options.firstTouch === true }
        return set(encodeAttribution(attribution, rule), maxAge)
      } catch {
        return false // not the contract's shape: never written
      }
    },
    remove() {
      // `auto` before any write here: the cookie may be on any parent (another subdomain wrote
      // it), so it is expired on each, and host-only; expiring sets nothing anywhere.
      if (scope !== undefined) set('', 0)
      else
        for (const on of ['', ...cookieDomainCandidates(hostname).map((d) => `; Domain=${d}`)])
          set('', 0, on)
    },
  }
}

/**
 * Throws a ConfigError unless `domain` is the host of `href` or a parent of it (`shop.example`
 * for `www.shop.example`).
 */
export function checkCookieDomain(
  domain: string,
  href: string,
  label = 'cookieDomain',
  verdict = 'is refused',
): void {
  let host = ''
  try {
    host = new URL(href).hostname
  } catch {}
  if (host !== '' && (host === domain || host.endsWith(`.${domain}`))) return
  throw new ConfigError(
    label,
    `${label}=${quote(domain)} ${verdict}: it is neither this page's host (${host || 'none'}) nor a parent of it, so the browser would refuse the cookie.`,
  )
}

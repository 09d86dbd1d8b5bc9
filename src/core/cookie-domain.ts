// `cookieDomain: 'auto'`: the site's registrable domain, found the way the browser itself decides
// it. A short-lived test cookie is offered to each parent of the page's host, broadest first; the
// browser refuses a public suffix (`co.uk`, `github.io`) and takes the first domain a site can own
// (`example.co.uk`). No public-suffix list ships: the browser's own is the one that counts.
import type { CookieJar } from './host.ts'

export const AUTO = 'auto'
const PROBE = 'referral_probe'

/** A host where a Domain attribute means nothing: localhost, an IP address, one label. */
const hostOnly = (host: string) =>
  host === 'localhost' || !host.includes('.') || /^[\d.]+$/.test(host) || host.includes(':')

/**
 * The parents of `host` a cookie could be set on, broadest first, ending with the host itself:
 * `co.uk`, `example.co.uk`, `shop.example.co.uk` for `shop.example.co.uk`. A top-level label
 * alone is never one (no browser takes a cookie for `uk`), and a host-only host has none.
 */
export function cookieDomainCandidates(host: string): string[] {
  const labels = host.split('.')
  const candidates: string[] = []
  if (hostOnly(host)) return candidates
  for (let count = 2; count <= labels.length; count++)
    candidates.push(labels.slice(-count).join('.'))
  return candidates
}

/**
 * The domain for the attribution cookie on `host`: the broadest parent the browser takes a
 * cookie for, or `undefined` for a host-only cookie (localhost, an IP address, a single label,
 * or a jar that takes nothing). Each test cookie is removed again at once.
 */
export function findCookieDomain(
  host: string,
  jar: CookieJar,
  random: () => number = Math.random,
): string | undefined {
  const token = `${random().toString(36).slice(2, 10)}${Date.now().toString(36)}`
  return cookieDomainCandidates(host).find((domain) => takesCookie(jar, domain, token))
}

/**
 * Whether the browser takes a short-lived test cookie on `domain` (host-only where undefined),
 * removed again at once. False where the page's cookies throw (a sandboxed frame).
 */
export function takesCookie(jar: CookieJar, domain: string | undefined, token: string): boolean {
  const attributes = `${domain === undefined ? '' : `; Domain=${domain}`}; Path=/; SameSite=Lax`
  try {
    jar.set(`${PROBE}=${token}; Max-Age=10${attributes}`)
    const taken = ` ${jar.get()};`.includes(` ${PROBE}=${token};`)
    if (taken) jar.set(`${PROBE}=; Max-Age=0${attributes}`)
    return taken
  } catch {
    return false // document.cookie throws in a sandboxed frame
  }
}

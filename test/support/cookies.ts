// A browser's cookie store, as far as the attribution cookie needs one: cookies set with a
// Domain are seen by that domain and its subdomains, Max-Age counts on Date.now() (fake timers
// move it), Max-Age=0 deletes, a cookie without a Domain is the host's alone, and a Domain that is
// not the page's host or a parent, or is a public suffix, is refused silently, as browsers do. One
// store, one jar per host name.
import type { CookieJar } from '../../src/core/host.ts'

interface StoredCookie {
  name: string
  value: string
  domain: string
  /** Set without a Domain attribute: sent to `domain` only, not its subdomains. */
  hostOnly: boolean
  expiresAt: number
}

export interface CookieWrite {
  host: string
  cookie: string
}

/** `publicSuffixes`: domains no site can set a cookie on, as the browser's list has them. */
export function createCookieBrowser(publicSuffixes: readonly string[] = ['test', 'uk', 'co.uk']) {
  const cookies: StoredCookie[] = []
  /** Every write made through a jar, in order, with the page's host. */
  const writes: CookieWrite[] = []
  const matches = (host: string, domain: string) => host === domain || host.endsWith(`.${domain}`)
  const live = () => cookies.filter((cookie) => cookie.expiresAt > Date.now())
  const sees = (host: string, cookie: StoredCookie) =>
    cookie.hostOnly ? host === cookie.domain : matches(host, cookie.domain)

  function jar(host: string): CookieJar {
    return {
      get: () =>
        live()
          .filter((cookie) => sees(host, cookie))
          .map((cookie) => `${cookie.name}=${cookie.value}`)
          .join('; '),
      set(text: string) {
        writes.push({ host, cookie: text })
        const [pair = '', ...attributes] = text.split(';').map((part) => part.trim())
        const at = pair.indexOf('=')
        const name = pair.slice(0, at)
        const value = pair.slice(at + 1)
        let domain = host
        let hostOnly = true
        let maxAge = Number.POSITIVE_INFINITY
        for (const attribute of attributes) {
          const [key = '', setting = ''] = attribute.split('=')
          if (key.toLowerCase() === 'domain') {
            domain = setting.toLowerCase().replace(/^\./, '')
            hostOnly = false
          }
          if (key.toLowerCase() === 'max-age') maxAge = Number(setting)
        }
        if (!matches(host, domain) || (!hostOnly && publicSuffixes.includes(domain))) return
        const existing = cookies.findIndex(
          (cookie) =>
            cookie.name === name && cookie.domain === domain && cookie.hostOnly === hostOnly,
        )
        if (existing !== -1) cookies.splice(existing, 1)
        if (maxAge > 0)
          cookies.push({ name, value, domain, hostOnly, expiresAt: Date.now() + maxAge * 1000 })
      },
    }
  }

  return {
    jar,
    writes,
    /** The live cookies, as `name=value` on `domain`. */
    cookies: () =>
      live().map(({ name, value, domain, hostOnly }) => ({
        name,
        value,
        domain,
        ...(hostOnly ? { hostOnly } : {}),
      })),
  }
}

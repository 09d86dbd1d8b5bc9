// The address without the referral it carried: what the address bar becomes once the widget has
// read it (data-clean-url), and the base a hand-off is added to. The tracking part publishes it
// (src/embed/runtime.ts), so a quiet page's loader does not carry it.
import { HANDOFF_PARAM } from '../api/handoff.ts'

/**
 * `href` without the configured parameters, or null when none of them is there. The site's other
 * parameters stay exactly as written: re-encoding them could change what its own code reads.
 */
export function withoutParams(href: string, params: readonly string[]): string | null {
  try {
    new URL(href)
  } catch {
    return null // not an absolute URL
  }
  const hashAt = href.indexOf('#')
  const beforeHash = hashAt === -1 ? href : href.slice(0, hashAt)
  const hash = hashAt === -1 ? '' : href.slice(hashAt)
  const queryAt = beforeHash.indexOf('?')
  if (queryAt === -1) return null
  const pairs = beforeHash.slice(queryAt + 1).split('&')
  const nameOf = (pair: string) => {
    const raw = pair.split('=')[0] ?? ''
    try {
      return decodeURIComponent(raw.replace(/\+/g, ' '))
    } catch {
      return raw
    }
  }
  const kept = pairs.filter((pair) => !params.includes(nameOf(pair)))
  if (kept.length === pairs.length) return null
  const query = kept.filter((pair) => pair !== '').join('&')
  return `${beforeHash.slice(0, queryAt)}${query ? `?${query}` : ''}${hash}`
}

/** `href` without a link's code (`refParams`) or a hand-off, or null when it carries neither. */
export const withoutReferral = (href: string, refParams: readonly string[]) =>
  withoutParams(href, [...refParams, HANDOFF_PARAM])

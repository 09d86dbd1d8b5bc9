import { CODE_PATTERN } from '../api/wire.ts'

/** The first configured parameter in `href` that carries a code of the contract's shape. */
export function readReferralCode(href: string, params: readonly string[]): string | null {
  let url: URL
  try {
    url = new URL(href)
  } catch {
    return null
  }
  for (const param of params) {
    for (const value of url.searchParams.getAll(param)) {
      if (CODE_PATTERN.test(value)) return value
    }
  }
  return null
}

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

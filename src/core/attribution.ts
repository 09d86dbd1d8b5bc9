import { ConfigError } from '../api/errors.ts'
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

/** Parses `data-ref-param` / `refParam`: a name or a comma-separated list of names. */
export function parseRefParams(value: string | readonly string[] | undefined): string[] {
  if (value === undefined) return ['ref']
  const names = (typeof value === 'string' ? value.split(',') : [...value]).map((name) =>
    name.trim(),
  )
  const bad = names.find((name) => !/^[A-Za-z0-9_.-]{1,64}$/.test(name))
  if (bad !== undefined || names.length === 0) {
    throw new ConfigError(
      'refParam',
      `refParam must be a parameter name or a comma-separated list of them (letters, digits, _ . -), not "${String(value).slice(0, 80)}".`,
    )
  }
  return names
}

import { ConfigError } from '../api/errors.ts'
import { CODE_PATTERN } from '../api/schemas.ts'

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

/** `href` without the configured parameters, or null when none of them is there. */
export function withoutParams(href: string, params: readonly string[]): string | null {
  let url: URL
  try {
    url = new URL(href)
  } catch {
    return null
  }
  if (!params.some((param) => url.searchParams.has(param))) return null
  for (const param of params) url.searchParams.delete(param)
  return url.toString()
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

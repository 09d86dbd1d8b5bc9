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

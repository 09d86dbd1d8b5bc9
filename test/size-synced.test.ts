// The sizes docs/PERFORMANCE.md quotes are the sizes of the built files: rebuild, then run
// `node scripts/sizes.mjs --write-docs` when this fails.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PAGES, type Page, sizes } from '../scripts/sizes.mjs'

const root = join(import.meta.dirname, '..')

/** The gzip and brotli bytes of a row of the size table, e.g. "| quiet visit … | 3,838 B | 3,441 B |". */
function quoted(row: string) {
  const page = readFileSync(join(root, 'docs/PERFORMANCE.md'), 'utf8')
  const line = page.split('\n').find((text) => text.startsWith(`| ${row}`))
  const numbers = [...(line ?? '').matchAll(/([\d,]+) B/g)].map((match) =>
    Number(match[1]?.replace(/,/g, '')),
  )
  return { gzip: numbers[0], brotli: numbers[1] }
}

describe('the sizes docs/PERFORMANCE.md quotes', () => {
  it.each(Object.keys(PAGES) as Page[])('quote the built files: %s', (page) => {
    expect(quoted(PAGES[page].label)).toEqual(sizes().totals[page])
  })
})

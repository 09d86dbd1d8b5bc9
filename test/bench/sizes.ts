// Sizes: the built files (through scripts/sizes.mjs, the same figures as `npm run size`) and
// the vendors' bundles, for results.json and the table.
import { join } from 'node:path'
import { ANALYTICS_DIST, measureFile, POSTHOG_DIST, type Size, table } from './common.ts'

type Page = 'quiet' | 'arrival' | 'withPanel' | 'linkOnly'
interface SizesModule {
  ARTIFACTS: Record<string, string>
  PAGES: Record<string, { label: string; files: string[] }>
  BUDGETS: Record<Page, number> & Record<string, number>
  measure(file: string): Size
  sizes(): {
    files: Record<string, Size>
    totals: Record<Page, { gzip: number; brotli: number }> &
      Record<string, { gzip: number; brotli: number }>
  }
}
const sizesModule = (await import(
  new URL('../../scripts/sizes.mjs', import.meta.url).href
)) as SizesModule

/** Ours and the vendors' bundles, measured the same way (gzip level 9, brotli quality 11). */
export function measureSizes() {
  const builtSizes = sizesModule.sizes()
  const vendorBundles = {
    'analytics-next standalone.js (analytics.min.js)': measureFile(
      join(ANALYTICS_DIST, 'standalone.js'),
    ),
    'posthog-js array.js': measureFile(join(POSTHOG_DIST, 'array.js')),
  }
  return { builtSizes, vendorBundles }
}
export type Sizes = ReturnType<typeof measureSizes>
export type BuiltSizes = Sizes['builtSizes']

/** The sizes section of results.json. */
export function sizesFigures({ builtSizes, vendorBundles }: Sizes) {
  return {
    units: 'bytes (gzip level 9, brotli quality 11)',
    artifacts: builtSizes.files,
    totals: builtSizes.totals,
    budgetsGzip: sizesModule.BUDGETS,
    withinBudget: Object.fromEntries(
      Object.entries(builtSizes.totals).map(([page, total]) => [
        page,
        total.gzip <= (sizesModule.BUDGETS[page] ?? 0),
      ]),
    ),
    vendorBundles,
  }
}

/** The sizes table and the totals against their budgets. */
export function sizesTable({ builtSizes, vendorBundles }: Sizes): string {
  return [
    'Sizes (bytes)',
    table(
      ['artifact', 'raw', 'gzip', 'brotli'],
      [
        ...Object.entries(builtSizes.files).map(([file, s]) => [file, s.raw, s.gzip, s.brotli]),
        ...Object.entries(vendorBundles).map(([file, s]) => [file, s.raw, s.gzip, s.brotli]),
      ],
    ),
    ...Object.entries(sizesModule.PAGES).map(
      ([page, { label }]) =>
        `${label}: ${builtSizes.totals[page]?.gzip} B gzip (budget ${sizesModule.BUDGETS[page]})`,
    ),
  ].join('\n')
}

// What a page downloads for the widget, measured on the built files: raw, gzip and brotli bytes
// per artifact, and the totals the budgets speak of (a page that only tracks, a page with the
// panel, a page without one that calls getLink(), and what the QR code adds on use). The same
// pages and their limits feed size-limit (.size-limit.js), which CI runs.
// `node scripts/sizes.mjs --json` prints JSON; `--write-docs` updates the size table of
// docs/PERFORMANCE.md.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

const DIST = join(import.meta.dirname, '../dist')

export const ARTIFACTS = {
  'referral-widget.js': 'the script tag (tracking, window.Referral)',
  'referral-widget-ui.js': 'the panel and banner, fetched only when the page has one',
  'referral-widget-link.js': 'campaign and link for getLink() on a page without a panel',
  'referral-widget-cookie.js':
    'the attribution cookie, fetched first where data-cookie-domain is set',
  'referral-widget-outbound.js':
    'the hand-off to other domains, fetched first where data-outbound is set',
  'referral-widget-qr.js': 'the QR code dialog and encoder, fetched only when its control is used',
}

/** Every file a page downloads for the widget, by page; qrOnUse: what the QR control adds. */
export const PAGES = {
  trackingOnly: { label: 'tracking only', files: ['referral-widget.js'] },
  withPanel: { label: 'with the panel', files: ['referral-widget.js', 'referral-widget-ui.js'] },
  linkOnly: {
    label: 'getLink() without a panel',
    files: ['referral-widget.js', 'referral-widget-link.js'],
  },
  withCookie: {
    label: 'tracking with data-cookie-domain',
    files: ['referral-widget.js', 'referral-widget-cookie.js'],
  },
  withOutbound: {
    label: 'tracking with data-outbound',
    files: ['referral-widget.js', 'referral-widget-outbound.js'],
  },
  qrOnUse: { label: 'the QR code, on use', files: ['referral-widget-qr.js'] },
}

/** Budgets in gzip bytes (1 KB = 1,000 bytes), the targets of issue 13. */
export const BUDGETS = {
  trackingOnly: 7_000,
  withPanel: 17_000,
  linkOnly: 10_000,
  withCookie: 7_000,
  withOutbound: 7_000,
  qrOnUse: 4_000,
}

/**
 * What CI enforces (size-limit): today's sizes plus a little room, never above a budget that is
 * met. Lower them as the widget shrinks; raise them only for a feature worth its bytes, in the
 * commit that adds it, saying so.
 */
export const CEILINGS = {
  trackingOnly: 15_735,
  withPanel: 30_175,
  linkOnly: 19_410,
  withCookie: 17_430,
  withOutbound: 17_040,
  qrOnUse: 3_710,
}

export function measure(file) {
  const bytes = readFileSync(join(DIST, file))
  return {
    raw: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  }
}

export function sizes() {
  const files = Object.fromEntries(Object.keys(ARTIFACTS).map((file) => [file, measure(file)]))
  const total = (names, unit) => names.reduce((sum, name) => sum + files[name][unit], 0)
  const totals = {}
  for (const [page, { files: names }] of Object.entries(PAGES))
    totals[page] = { gzip: total(names, 'gzip'), brotli: total(names, 'brotli') }
  return { files, totals }
}

/** Rewrites the gzip and brotli figures of docs/PERFORMANCE.md's size table to the built sizes. */
export function writeDocs(result) {
  const path = join(import.meta.dirname, '../docs/PERFORMANCE.md')
  const bytes = (n) => `${n.toLocaleString('en-US')} B`
  const rows = Object.fromEntries(
    Object.entries(PAGES).map(([page, { label }]) => [label, result.totals[page]]),
  )
  const readme = readFileSync(path, 'utf8')
    .split('\n')
    .map((line) => {
      const row = Object.keys(rows).find((name) => line.startsWith(`| ${name}`))
      if (!row) return line
      const cells = line.split(' | ')
      cells[1] = bytes(rows[row].gzip)
      cells[2] = bytes(rows[row].brotli)
      return cells.join(' | ')
    })
    .join('\n')
  writeFileSync(path, readme)
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = sizes()
  if (process.argv.includes('--write-docs')) writeDocs(result)
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(result, null, 2))
  } else {
    for (const [file, size] of Object.entries(result.files)) {
      console.log(
        `${file.padEnd(24)} raw ${String(size.raw).padStart(7)}  gzip ${String(size.gzip).padStart(6)}  brotli ${String(size.brotli).padStart(6)}`,
      )
    }
    for (const [page, { label }] of Object.entries(PAGES))
      console.log(`${label}: ${result.totals[page].gzip} B gzip (budget ${BUDGETS[page]})`)
  }
}

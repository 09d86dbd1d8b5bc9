// What a page downloads for the widget, measured on the built files: raw, gzip and brotli bytes
// per artifact, and the two totals the budgets speak of (a page that only tracks, a page with
// the panel). `node scripts/sizes.mjs --json` prints JSON; `--write-readme` updates the README's
// size table to match.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

const DIST = join(import.meta.dirname, '../dist')

export const ARTIFACTS = {
  'referral-widget.js': 'the script tag (tracking, window.Referral)',
  'referral-widget-ui.js': 'the panel and banner, fetched only when the page has one',
  'referral-widget-qr.js': 'the QR code dialog and encoder, fetched only when its control is used',
}

/** Budgets in gzip bytes (1 KB = 1,000 bytes); qrOnUse: what the QR code control adds on use. */
export const BUDGETS = { trackingOnly: 7_000, withPanel: 17_000, qrOnUse: 4_000 }

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
  const tracking = files['referral-widget.js']
  const ui = files['referral-widget-ui.js']
  const qr = files['referral-widget-qr.js']
  return {
    files,
    totals: {
      trackingOnly: { gzip: tracking.gzip, brotli: tracking.brotli },
      withPanel: { gzip: tracking.gzip + ui.gzip, brotli: tracking.brotli + ui.brotli },
      qrOnUse: { gzip: qr.gzip, brotli: qr.brotli },
    },
  }
}

/** Rewrites the gzip and brotli figures of the README's size table to the built sizes. */
export function writeReadme(result) {
  const path = join(import.meta.dirname, '../README.md')
  const bytes = (n) => `${n.toLocaleString('en-US')} B`
  const rows = {
    'tracking only': result.totals.trackingOnly,
    'with the panel': result.totals.withPanel,
    'the QR code, on use': result.totals.qrOnUse,
  }
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
  if (process.argv.includes('--write-readme')) writeReadme(result)
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(result, null, 2))
  } else {
    for (const [file, size] of Object.entries(result.files)) {
      console.log(
        `${file.padEnd(24)} raw ${String(size.raw).padStart(7)}  gzip ${String(size.gzip).padStart(6)}  brotli ${String(size.brotli).padStart(6)}`,
      )
    }
    const { trackingOnly, withPanel, qrOnUse } = result.totals
    console.log(`tracking only: ${trackingOnly.gzip} B gzip (budget ${BUDGETS.trackingOnly})`)
    console.log(`with the panel: ${withPanel.gzip} B gzip (budget ${BUDGETS.withPanel})`)
    console.log(`the QR code, on use: +${qrOnUse.gzip} B gzip (budget ${BUDGETS.qrOnUse})`)
  }
}

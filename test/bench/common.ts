// What every part of the benchmark shares: its settings, file sizes, statistics and table
// formatting.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import type { Browser } from 'playwright-core'

export const ROOT = join(import.meta.dirname, '../..')
export const RESULTS = join(import.meta.dirname, 'results.json')
export const RUNS = Math.max(5, Number(process.env.BENCH_RUNS ?? 7) || 7)
export const BURST_RUNS = 5
export const BURSTS = [1_000, 10_000] as const
/** Six tabs of one site, each tracking a signup every 100 ms for 5 s. */
export const TABS = { tabs: 6, callsPerTab: 50, everyMs: 100 } as const
/**
 * A page's figures are read at this time after navigation (or 1 s after its ready moment, if
 * later): long enough for posthog-js's first batch (its queue flushes every 3 s) to be in.
 */
export const WINDOW_MS = 4_000
export const AFTER_READY_MS = 1_000
export const PUBLIC_KEY = 'pk_test_acme'
export const SEGMENT_WRITE_KEY = 'wk_bench'
export const POSTHOG_TOKEN = 'phc_bench'
export const ANALYTICS_DIST = join(ROOT, 'node_modules/@segment/analytics-next/dist/umd')
export const POSTHOG_DIST = join(ROOT, 'node_modules/posthog-js/dist')

// --- sizes ----------------------------------------------------------------------------------

export interface Size {
  raw: number
  gzip: number
  brotli: number
}

export function measureFile(path: string): Size {
  const bytes = readFileSync(path)
  return {
    raw: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  }
}

// --- statistics -----------------------------------------------------------------------------

export const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  if (sorted.length === 0) return Number.NaN
  const middle = Math.floor(sorted.length / 2)
  const upper = sorted[middle] ?? Number.NaN
  return sorted.length % 2 === 1 ? upper : ((sorted[middle - 1] ?? upper) + upper) / 2
}

export interface Summary {
  median: number
  min: number
  max: number
  runs: number[]
}
export function summary(values: readonly number[], digits = 1): Summary {
  return {
    median: round(median(values), digits),
    min: round(Math.min(...values), digits),
    max: round(Math.max(...values), digits),
    runs: values.map((value) => round(value, digits)),
  }
}

export const countSummary = (values: number[]) => summary(values, 0)

// --- tables ---------------------------------------------------------------------------------

const pad = (value: string | number, width: number) => String(value).padStart(width)
export const ms = (value: number | null | undefined) =>
  value === null || value === undefined || Number.isNaN(value) ? '–' : value.toFixed(1)
export const kb = (bytes: number) => (bytes / 1000).toFixed(1)

export function table(headers: string[], rows: Array<Array<string | number>>) {
  const widths = headers.map((header, i) =>
    Math.max(header.length, ...rows.map((row) => String(row[i] ?? '').length)),
  )
  const line = (cells: Array<string | number>) =>
    cells
      .map((cell, i) => (i === 0 ? String(cell).padEnd(widths[i] ?? 0) : pad(cell, widths[i] ?? 0)))
      .join('  ')
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n')
}

/**
 * A page in a fresh context (empty storage and cache) running `watch` first, behind Chromium's own
 * network emulation (CDP): `latencyMs` on every request, no throughput limit.
 */
export async function pageBehindLatency(browser: Browser, latencyMs: number, watch: string) {
  const context = await browser.newContext({ locale: 'en-US' })
  await context.addInitScript(watch)
  const page = await context.newPage()
  const cdp = await context.newCDPSession(page)
  await cdp.send('Network.enable')
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: latencyMs,
    downloadThroughput: -1,
    uploadThroughput: -1,
  })
  return { context, page }
}

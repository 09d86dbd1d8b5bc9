// The host page as a site owner writes it (the widget's script tag, the documented stub) and the
// built files that tag loads: their Subresource Integrity hashes, and a tampered copy of one.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { BrowserContext } from 'playwright-core'

const escapeAttribute = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')

export interface WidgetPageOptions {
  /** data-key; null leaves the attribute out. Default pk_test_acme. */
  key?: string | null
  /** Other data- attributes of the script tag, without the `data-` prefix. */
  attributes?: Record<string, string>
  /** A [data-referral-widget] element (default true). */
  panel?: boolean
  /** A [data-referral-banner] element (default false). */
  banner?: boolean
  /** Markup for <head> (stylesheets...). */
  head?: string
  /** Markup placed before the widget's script tag (the stub, host scripts...). */
  before?: string
  /** Markup placed after it. */
  after?: string
  /** Other attributes of the script tag, as markup (e.g. integrity and crossorigin). */
  scriptAttributes?: string
  /** The tag's src (default: the service's /referral-widget.js). */
  src?: string
  title?: string
}

/** The documented stub, verbatim from WIDGET.md. */
export const STUB =
  'window.Referral=window.Referral||function(){(Referral.q=Referral.q||[]).push(arguments)}'

/** A host page carrying the widget's script tag as a site owner would paste it. */
export function widgetPage(service: { url: string }, options: WidgetPageOptions = {}): string {
  const key = options.key === undefined ? 'pk_test_acme' : options.key
  const attributes = Object.entries({
    ...(key === null ? {} : { key }),
    ...options.attributes,
  })
    .map(([name, value]) => ` data-${name}="${escapeAttribute(value)}"`)
    .join('')
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${options.title ?? 'Shop'}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
${options.head ?? ''}</head>
<body>
<main>
<h1>${options.title ?? 'Shop'}</h1>
${options.banner ? '<div data-referral-banner></div>' : ''}
${options.panel === false ? '' : '<div data-referral-widget></div>'}
</main>
${options.before ?? ''}
<script async src="${options.src ?? `${service.url}/referral-widget.js`}"${options.scriptAttributes ?? ''}${attributes}></script>
${options.after ?? ''}
</body>
</html>`
}

/** The build's Subresource Integrity hash of each script-tag file (dist/integrity.json). */
export function builtIntegrity(): Record<string, string> {
  const file = join(import.meta.dirname, '../../../dist/integrity.json')
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>
}

/** The script tag's attributes that pin it with the build's hash. */
export const pinnedTag = () =>
  ` integrity="${builtIntegrity()['referral-widget.js']}" crossorigin="anonymous"`

/**
 * Serves the built `file` changed (one line that sets `window.__changed` first) to every page
 * of `context`, as a tampering CDN would: a pinned page must never run it.
 */
export async function serveChanged(context: BrowserContext, file: string): Promise<void> {
  const original = readFileSync(join(import.meta.dirname, '../../../dist', file), 'utf8')
  await context.route(`**/${file}`, (route) =>
    route.fulfill({
      status: 200,
      contentType: 'text/javascript',
      headers: { 'Access-Control-Allow-Origin': '*' },
      body: `window.__changed = true;\n${original}`,
    }),
  )
}

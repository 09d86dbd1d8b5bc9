// `npm run service`: the local referral service on PORT (default 8787), under BASE_PATH (default
// none), with the built script-tag files (dist/) beside the API.
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { serve } from '@hono/node-server'
import pkg from '../../package.json' with { type: 'json' }
import { checkBasePath, createService, ServiceOptionError } from './app.ts'
import { pasteLine } from './scripts.ts'
import { DEMO_KEYS } from './seed.ts'

function wholeNumber(name: string, fallback: number, min: number, what: string): number {
  const raw = process.env[name]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!/^\d+$/.test(raw) || value < min || !Number.isSafeInteger(value)) {
    console.error(`[service] ${name} must be ${what}, not "${raw}".`)
    process.exit(1)
  }
  return value
}

const perMinute = (name: string, fallback: number) =>
  wholeNumber(name, fallback, 1, 'a whole number of requests per minute, 1 or more')

const port = wholeNumber('PORT', 8787, 0, 'a port number (0 picks a free one)')
let basePath = ''
try {
  basePath = checkBasePath(process.env.BASE_PATH)
} catch (error) {
  if (!(error instanceof ServiceOptionError)) throw error
  console.error(`[service] BASE_PATH ${error.message.replace(/^basePath /, '')}`)
  process.exit(1)
}
const dist = fileURLToPath(new URL('../../dist/', import.meta.url))
const service = createService({
  basePath,
  scripts: { dir: dist, version: pkg.version },
  pkRateLimit: perMinute('PK_RATE_LIMIT', 100),
  skRateLimit: perMinute('SK_RATE_LIMIT', 1000),
  trustedProxies: (process.env.TRUSTED_PROXY ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
  controls: process.env.DEMO_CONTROLS !== '0',
})

serve({ fetch: service.app.fetch, port, hostname: process.env.HOST ?? '127.0.0.1' }, (info) => {
  const keys = [
    DEMO_KEYS.acme.pkTest,
    DEMO_KEYS.acme.skTest,
    DEMO_KEYS.globex.pkTest,
    DEMO_KEYS.globex.skTest,
  ]
  const base = `http://localhost:${info.port}${basePath}`
  console.log(`referral service on ${base} · demo keys: ${keys.join(', ')} (and the _live_ twins)`)
  if (!existsSync(`${dist}referral-widget.js`)) {
    console.error(
      '[service] dist/referral-widget.js is not built: run `npm run build` to serve the script; the API works meanwhile.',
    )
    return
  }
  // The tag to paste: this build's own URL, which never changes content, pinned by its hash.
  void pasteLine(dist, base).then((line) => console.log(`the script tag to paste:\n  ${line}`))
})

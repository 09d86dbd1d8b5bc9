// Debian's Chromium driven by playwright-core. No browser is ever downloaded: CHROMIUM_PATH or
// /usr/bin/chromium must exist, or the suite stops with one line saying how to install it.
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
export const ARTIFACTS = join(import.meta.dirname, '../artifacts')

export function assertChromium() {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM}: install it with "sudo apt-get install -y chromium" or set CHROMIUM_PATH.`,
    )
  }
}

/** Headless Chromium as root on a closed network: no sandbox, no background connections. */
export async function launch(extraArgs: readonly string[] = []): Promise<Browser> {
  assertChromium()
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...extraArgs,
    ],
  })
}

/** What a page did that a test may assert on: console lines, page errors, CSP violations. */
export interface PageLog {
  console: string[]
  errors: string[]
  cspViolations: string[]
  /** Every URL the page requested. */
  requests: string[]
}

/** A page whose console, errors, CSP violations and requests are recorded. */
export async function watchedPage(context: BrowserContext): Promise<{ page: Page; log: PageLog }> {
  const page = await context.newPage()
  const log: PageLog = { console: [], errors: [], cspViolations: [], requests: [] }
  page.on('console', (message) => log.console.push(`${message.type()}: ${message.text()}`))
  page.on('pageerror', (error) => log.errors.push(error.message))
  page.on('request', (request) => log.requests.push(request.url()))
  await page.exposeFunction('__reportCsp', (violation: string) => log.cspViolations.push(violation))
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { __reportCsp(v: string): void }).__reportCsp
      report(`${event.violatedDirective} ${event.blockedURI}`)
    })
  })
  return { page, log }
}

export function screenshotPath(name: string) {
  mkdirSync(ARTIFACTS, { recursive: true })
  return join(ARTIFACTS, `${name}.png`)
}

// Chromium driven by playwright-core. The browser comes with `npm install`: the @sparticuz/chromium
// package ships it, and it is unpacked once per package version into the system's temporary
// directory (see test/support/chromium-unpack.ts). CHROMIUM_PATH, when set, names another binary
// and overrides all of that. Nothing is ever downloaded or installed.
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'
import { type UnpackedChromium, unpackChromium } from '../../support/chromium-unpack.ts'

export const ARTIFACTS = join(import.meta.dirname, '../artifacts')

/** Raised when CHROMIUM_PATH names a file that does not exist. */
export class ChromiumNotFoundError extends Error {
  override readonly name = 'ChromiumNotFoundError'
  constructor(readonly path: string) {
    super(
      `[referral] CHROMIUM_PATH is ${path}, which does not exist; unset it to use the bundled one.`,
    )
  }
}

/** What launch() runs: the binary and the environment it needs. */
export interface ChromiumTarget {
  executablePath: string
  env?: Record<string, string>
  /** Where the binary came from, for reports (the benchmark records it). */
  source: string
}

/** The installed @sparticuz/chromium: its bin/ directory and version. */
function bundledPackage(): { binDir: string; version: string } {
  // The package exports only its entry; its root is two levels above build/cjs/index.cjs.
  const root = join(dirname(createRequire(import.meta.url).resolve('@sparticuz/chromium')), '../..')
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    version: string
  }
  return { binDir: join(root, 'bin'), version }
}

/** Unpacks the bundled Chromium unless this version is already unpacked (global setup does it
 * once before the workers start; later calls only read the marker). */
export async function unpackBundledChromium(): Promise<UnpackedChromium & { version: string }> {
  const bundled = bundledPackage()
  return { ...(await unpackChromium({ ...bundled, root: tmpdir() })), version: bundled.version }
}

/** Only for the launched process: the package's NSS libraries (a bare Debian has none) and its
 * fonts. The test runner's own environment is left as it is. */
function bundledEnv(unpacked: UnpackedChromium): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value
  env.LD_LIBRARY_PATH = [unpacked.libraryPath, process.env.LD_LIBRARY_PATH]
    .filter(Boolean)
    .join(':')
  env.FONTCONFIG_PATH = unpacked.fontConfigPath
  // Its default locale comes from LANG, and C.UTF-8 reads as "en-US@posix", which Intl refuses.
  env.LANG = 'en_US.UTF-8'
  return env
}

export async function chromiumTarget(): Promise<ChromiumTarget> {
  const override = process.env.CHROMIUM_PATH
  if (override) {
    if (!existsSync(override)) throw new ChromiumNotFoundError(override)
    return { executablePath: override, source: `CHROMIUM_PATH=${override}` }
  }
  const unpacked = await unpackBundledChromium()
  return {
    executablePath: unpacked.executablePath,
    env: bundledEnv(unpacked),
    source: `@sparticuz/chromium ${unpacked.version}, ${unpacked.dir}`,
  }
}

/** Headless Chromium as root on a closed network: no sandbox, no background connections. The
 * package's own --single-process is left out: it breaks a second browser context.
 * `backForwardCache`: Playwright turns the cache off; this keeps it on, and has Chromium say why
 * a page was not restored (`notRestoredReasons`). */
export async function launch(
  extraArgs: readonly string[] = [],
  {
    backForwardCache = false,
    executablePath,
  }: {
    backForwardCache?: boolean | undefined
    /** A system Chromium (the engine suite's), instead of CHROMIUM_PATH or the bundled one. */
    executablePath?: string | undefined
  } = {},
): Promise<Browser> {
  const target: ChromiumTarget = executablePath
    ? { executablePath, source: executablePath }
    : await chromiumTarget()
  return chromium.launch({
    executablePath: target.executablePath,
    ...(backForwardCache ? { ignoreDefaultArgs: ['--disable-back-forward-cache'] } : {}),
    ...(target.env ? { env: target.env } : {}),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-domain-reliability',
      '--disable-sync',
      '--no-pings',
      '--font-render-hinting=none',
      ...(backForwardCache ? ['--enable-features=BackForwardCacheSendNotRestoredReasons'] : []),
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

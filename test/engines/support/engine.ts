// The three engines the widget promises to work in, behind one small interface: Chromium
// (Debian's `chromium`, driven by playwright-core, back/forward cache on), Firefox (Debian's
// `firefox-esr`, puppeteer-core over WebDriver BiDi) and WebKit (WebKitGTK's MiniBrowser, through
// Debian's `WebKitWebDriver`, classic WebDriver, on an X display). A test says what a visitor does
// (open, go, back, reload) and reads the page with `evaluate`; each engine does it its own way.
import { existsSync } from 'node:fs'
import { startWithTries } from './tries.ts'

export type EngineName = 'chromium' | 'firefox' | 'webkit'
export const ENGINES: readonly EngineName[] = ['chromium', 'firefox', 'webkit']

/**
 * More host names of the host site, each its own origin, that every engine resolves to loopback:
 * two subdomains of one site (the shared cookie on shop.test) and another registrable domain (a
 * hand-off). Chromium maps them (`--host-resolver-rules`), Firefox resolves them locally
 * (`network.dns.localDomains`), WebKit reaches them through a proxy on loopback (webkit.ts).
 */
export const SITE_HOSTS = ['www.shop.test', 'app.shop.test', 'app.other.test'] as const
export type SiteHost = (typeof SITE_HOSTS)[number]

/** A tab: one top-level browsing context with its own history. */
export interface Tab {
  /** Navigates and waits for the page's load event. */
  goto(url: string): Promise<void>
  /** The browser's Back; returns once the navigation is under way (tests then wait on the page). */
  back(): Promise<void>
  reload(): Promise<void>
  /**
   * Runs `fn(arg)` in the page and returns its (awaited) result. `fn` is sent as source text: it
   * may use only its argument and the page's globals, and its result must be JSON.
   */
  evaluate<T, A = undefined>(fn: (arg: A) => T | Promise<T>, arg?: A): Promise<T>
  /** Presses and releases a key as the visitor's keyboard does (a trusted event). */
  press(key: Key): Promise<void>
  close(): Promise<void>
}

/** The keys a keyboard-only visitor's journey needs. */
export type Key = 'Tab' | 'Enter' | 'Escape' | 'Space'

/** A browsing session: the tabs share storage and Web Locks (one browser profile or context). */
export interface Session {
  open(url: string): Promise<Tab>
  close(): Promise<void>
}

export interface Engine {
  readonly name: EngineName
  /** The browser's own name and version, for the run's report. */
  readonly version: string
  newSession(): Promise<Session>
  close(): Promise<void>
}

/** What each engine needs installed, and the Debian package that brings it. */
export const REQUIREMENTS: Record<EngineName, { files: string[]; packages: string }> = {
  chromium: { files: ['/usr/bin/chromium'], packages: 'chromium' },
  firefox: { files: ['/usr/bin/firefox-esr'], packages: 'firefox-esr' },
  webkit: {
    files: [
      '/usr/bin/WebKitWebDriver',
      '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser',
      '/usr/bin/Xvfb',
    ],
    packages: 'webkit2gtk-driver xvfb',
  },
}

/** Why this machine cannot run `name`, or undefined when it can. */
export function missing(name: EngineName): string | undefined {
  const { files, packages } = REQUIREMENTS[name]
  const absent = files.filter((file) => !existsSync(file))
  if (absent.length === 0) return undefined
  return `${name} needs ${absent.join(', ')}: apt-get install -y ${packages}`
}

/** The engine this run is for: REFERRAL_ENGINE (npm run test:engines sets it). */
export function engineOfRun(): EngineName {
  const name = process.env.REFERRAL_ENGINE ?? 'chromium'
  if (!(ENGINES as readonly string[]).includes(name)) {
    throw new Error(`REFERRAL_ENGINE is ${name}; it must be one of ${ENGINES.join(', ')}`)
  }
  return name as EngineName
}

async function launchOnce(name: EngineName, abandon: AbortSignal): Promise<Engine> {
  if (name === 'chromium') return (await import('./chromium.ts')).launchChromium()
  if (name === 'firefox') return (await import('./firefox.ts')).launchFirefox()
  return (await import('./webkit.ts')).launchWebKit(abandon)
}

/** How long one launch may take; a busy machine takes seconds, a hung launch never ends. */
export const LAUNCH_MS = 40_000
export const LAUNCH_TRIES = 3

/** Launches the engine, tried again when it hangs while it starts (tries.ts). */
export function launchEngine(name: EngineName): Promise<Engine> {
  return startWithTries(name, (abandon) => launchOnce(name, abandon), {
    ms: LAUNCH_MS,
    tries: LAUNCH_TRIES,
  })
}

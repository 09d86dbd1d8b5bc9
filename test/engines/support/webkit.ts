// WebKit: WebKitGTK's MiniBrowser (Safari's engine), through Debian's WebKitWebDriver over classic
// WebDriver. It needs an X display: Xvfb is started here when DISPLAY is unset. One WebDriver
// session per engine; a test's session is a group of windows in it (each test's pages live on
// origins of their own ports, so their storage never meets another test's), and a second session
// open at once is a private MiniBrowser of its own (windows of one share their storage).
import { type ChildProcess, spawn } from 'node:child_process'
import { createServer } from 'node:net'
import type { Engine, Key, Session, Tab } from './engine.ts'
import { startSiteProxy } from './site-proxy.ts'
import { startWithTries } from './tries.ts'
import { newSession, type WebDriverSession } from './webdriver.ts'

/** The keys of engine.ts's Key as WebDriver names them. */
const WEBDRIVER_KEYS: Record<Key, string> = {
  Tab: '\uE004',
  Enter: '\uE007',
  Escape: '\uE00C',
  Space: '\uE00D',
}

const DRIVER = '/usr/bin/WebKitWebDriver'
const MINIBROWSER = '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser'
/** How long the driver may take to start its MiniBrowser before the try is given up. */
const SESSION_MS = 30_000
/** A second, private MiniBrowser takes about a second; one that takes ten has hung. */
const PRIVATE_START = { ms: 10_000, tries: 4 }

/** A TCP port nothing listens on now. */
async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  if (!address || typeof address === 'string') throw new Error('no free port')
  return address.port
}

/** Starts Xvfb on a display it picks itself; resolves with the display (":99"). */
async function startXvfb(): Promise<{ display: string; process: ChildProcess }> {
  const xvfb = spawn(
    'Xvfb',
    ['-displayfd', '1', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'],
    {
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  )
  const display = await new Promise<string>((resolve, reject) => {
    let text = ''
    xvfb.stdout?.on('data', (chunk: Buffer) => {
      text += chunk.toString()
      if (text.includes('\n')) resolve(`:${text.trim()}`)
    })
    xvfb.once('exit', (code) => reject(new Error(`Xvfb exited (${code}) before it had a display`)))
  })
  return { display, process: xvfb }
}

/** Waits until the driver answers its status. */
async function driverReady(base: string, driver: ChildProcess): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    if (driver.exitCode !== null) throw new Error(`WebKitWebDriver exited (${driver.exitCode})`)
    try {
      const status = (await (await fetch(`${base}/status`)).json()) as {
        value?: { ready?: boolean }
      }
      if (status.value?.ready) return
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error('WebKitWebDriver did not become ready')
}

/**
 * Runs WebDriver commands for one window at a time: each switches to its window first. The
 * session's first window stays open (WebDriver opens new windows from a current one).
 */
async function windows(session: WebDriverSession) {
  const first = await session.command<string>('GET', '/window')
  let current = first
  let chain: Promise<unknown> = Promise.resolve()
  const inWindow = <T>(handle: string, action: () => Promise<T>): Promise<T> => {
    const run = chain.then(async () => {
      if (current !== handle) {
        await session.command('POST', '/window', { handle })
        current = handle
      }
      return action()
    })
    chain = run.catch(() => {})
    return run
  }
  return {
    inWindow,
    // A window, not a tab: MiniBrowser shows a new tab behind the current one, hidden, where
    // animation frames never come and timers are throttled; a window is visible, as a visitor's is.
    open: () =>
      inWindow(first, async () => {
        const opened = await session.command<{ handle: string }>('POST', '/window/new', {
          type: 'window',
        })
        return opened.handle
      }),
    close: (handle: string) =>
      inWindow(handle, async () => {
        await session.command('DELETE', '/window')
        await session.command('POST', '/window', { handle: first })
        current = first
      }),
  }
}

/**
 * The page function, run by Execute Async Script with its argument. Its result comes back as JSON
 * text written with the page's Array.prototype.toJSON set aside (WebKit's driver serializes with
 * the page's JSON, so a hostile page's toJSON would garble it); errors come back as text.
 */
const evaluation = (source: string) => `
const done = arguments[arguments.length - 1];
const answer = (result) => {
  const toJSON = Object.getOwnPropertyDescriptor(Array.prototype, 'toJSON');
  if (toJSON) delete Array.prototype.toJSON;
  try { done(JSON.stringify(result)) } finally { if (toJSON) Object.defineProperty(Array.prototype, 'toJSON', toJSON) }
};
Promise.resolve().then(() => (${source})(arguments[0])).then(
  (value) => answer({ ok: value === undefined ? null : value }),
  (error) => answer({ error: String((error && error.stack) || error) }),
);`

/** A WebKitWebDriver with its MiniBrowser (`args` more), and its windows as the suite's tabs. */
async function startBrowser(
  display: string | undefined,
  args: string[] = [],
  abandon?: AbortSignal,
) {
  const port = await freePort()
  const proxy = await startSiteProxy()
  const driver = spawn(DRIVER, [`--port=${port}`], {
    // Its language comes from LANG (C.UTF-8 would make navigator.language "C").
    env: { ...process.env, LANG: 'en_US.UTF-8', ...(display ? { DISPLAY: display } : {}) },
    stdio: 'ignore',
    // A group of its own: stopping it stops the MiniBrowser it started too.
    detached: true,
  })
  const stop = () => {
    try {
      if (driver.pid) process.kill(-driver.pid, 'SIGKILL')
    } catch {
      // Already gone.
    }
  }
  // Given up (a start past its deadline): the driver and its browser go, and the request waiting
  // on them fails.
  abandon?.addEventListener(
    'abort',
    () => {
      stop()
      proxy.close()
    },
    { once: true },
  )
  const base = `http://127.0.0.1:${port}`
  try {
    await driverReady(base, driver)
    const session = await newSession(
      base,
      {
        browserName: 'MiniBrowser',
        pageLoadStrategy: 'normal',
        timeouts: { script: 30_000, pageLoad: 30_000 },
        'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation', ...args] },
        // Every request through the proxy, loopback addresses too. No `noProxy`: with one, this
        // MiniBrowser crashed at start now and then (a SIGSEGV in g_strdupv under
        // webkit_network_proxy_settings_new, about one start in twenty), leaving its driver
        // waiting for it until the try's deadline.
        proxy: { proxyType: 'manual', httpProxy: proxy.address },
      },
      SESSION_MS,
    )
    const browser = await windows(session)
    const tabOf = (handle: string): Tab => {
      const command = <T>(method: 'POST', path: string, body?: unknown) =>
        browser.inWindow(handle, () => session.command<T>(method, path, body))
      return {
        goto: async (url) => void (await command('POST', '/url', { url })),
        back: async () => void (await command('POST', '/back')),
        reload: async () => void (await command('POST', '/refresh')),
        async evaluate(fn, arg) {
          const text = await command<string>('POST', '/execute/async', {
            script: evaluation(fn.toString()),
            args: [arg ?? null],
          })
          const answer = JSON.parse(text) as { ok?: unknown; error?: string }
          if (answer.error !== undefined) throw new Error(`in the page: ${answer.error}`)
          return answer.ok as never
        },
        // WebDriver's key actions, each key by its code point (WebDriver's table of keys).
        async press(key) {
          const value = WEBDRIVER_KEYS[key]
          await command('POST', '/actions', {
            actions: [
              {
                type: 'key',
                id: 'keyboard',
                actions: [
                  { type: 'keyDown', value },
                  { type: 'keyUp', value },
                ],
              },
            ],
          })
        },
        close: () => browser.close(handle),
      }
    }
    /** A group of windows in this browser: they share its storage, as one profile's tabs do. */
    const group = (): Session => {
      const tabs: Tab[] = []
      return {
        async open(url) {
          const tab = tabOf(await browser.open())
          tabs.push(tab)
          await tab.goto(url)
          return tab
        },
        async close() {
          for (const tab of tabs.splice(0)) await tab.close().catch(() => {})
        },
      }
    }
    return {
      version: `WebKitGTK ${String(session.capabilities.browserVersion)}`,
      group,
      async close() {
        await session.command('DELETE', '').catch(() => {})
        stop()
        proxy.close()
      },
    }
  } catch (error) {
    stop()
    proxy.close()
    throw error
  }
}

export async function launchWebKit(abandon?: AbortSignal): Promise<Engine> {
  const xvfb = process.env.DISPLAY ? undefined : await startXvfb()
  const display = xvfb?.display ?? process.env.DISPLAY
  const main = await startBrowser(display, [], abandon).catch((error) => {
    xvfb?.process.kill()
    throw error
  })
  /** Sessions open now: the first is a group of the main browser's windows, the others not. */
  let open = 0
  return {
    name: 'webkit',
    version: main.version,
    async newSession(): Promise<Session> {
      // Windows of one MiniBrowser share its storage: a second browser at once (another
      // person's) is a MiniBrowser of its own, private, so it shares nothing.
      const own =
        open === 0
          ? undefined
          : await startWithTries(
              'a private MiniBrowser',
              (abandon) => startBrowser(display, ['--private'], abandon),
              PRIVATE_START,
            )
      const session = (own ?? main).group()
      open++
      return {
        open: session.open,
        async close() {
          open--
          await session.close()
          await own?.close()
        },
      }
    },
    async close() {
      await main.close()
      xvfb?.process.kill()
    },
  }
}

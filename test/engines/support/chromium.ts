// Chromium: Debian's full browser (its back/forward cache works, unlike the npm package's headless
// shell), driven by playwright-core with the cache left on, as the browser suite launches it.
import type { BrowserContext, Page } from 'playwright-core'
import { launch } from '../../e2e/support/browser.ts'
import { type Engine, type Session, SITE_HOSTS, type Tab } from './engine.ts'

const BINARY = '/usr/bin/chromium'

function tabOf(page: Page): Tab {
  return {
    goto: async (url) => {
      await page.goto(url)
    },
    // A page restored from the cache fires no load event: wait for the navigation to commit.
    back: async () => {
      await page.goBack({ waitUntil: 'commit' })
    },
    reload: async () => {
      await page.reload()
    },
    evaluate: (fn, arg) => page.evaluate(fn as (arg: unknown) => never, arg),
    press: (key) => page.keyboard.press(key),
    close: () => page.close(),
  }
}

function sessionOf(context: BrowserContext): Session {
  return {
    async open(url) {
      const page = await context.newPage()
      await page.goto(url)
      return tabOf(page)
    },
    close: () => context.close(),
  }
}

export async function launchChromium(): Promise<Engine> {
  const rules = SITE_HOSTS.map((name) => `MAP ${name} 127.0.0.1`).join(', ')
  const browser = await launch([`--host-resolver-rules=${rules}`], {
    backForwardCache: true,
    executablePath: BINARY,
  })
  return {
    name: 'chromium',
    version: `Chromium ${browser.version()}`,
    newSession: async () => sessionOf(await browser.newContext({ locale: 'en-US' })),
    close: () => browser.close(),
  }
}

// Firefox: Debian's Firefox ESR, driven by puppeteer-core over WebDriver BiDi (Playwright's
// Firefox needs a build of its own, which cannot be downloaded here). Each session is a user
// context of one browser: its own storage and cache.
import puppeteer, { type BrowserContext, type Page } from 'puppeteer-core'
import { type Engine, type Session, SITE_HOSTS, type Tab } from './engine.ts'

const BINARY = '/usr/bin/firefox-esr'

/**
 * Has the page navigate itself, then waits for the next document's load. Puppeteer's own goto,
 * goBack and reload wait for events that Firefox does not send them after a page came back from
 * the back/forward cache, so the page is asked to go, and then watched.
 */
async function navigate(page: Page, action: string): Promise<void> {
  await page.evaluate(`window.__leaving = true; setTimeout(() => { ${action} }, 0)`)
  for (let attempt = 0; attempt < 600; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 50))
    const arrived = await page
      .evaluate(() => !('__leaving' in window) && document.readyState === 'complete')
      .catch(() => false) // the old document went away mid-question
    if (arrived) return
  }
  throw new Error(`Firefox: no new page loaded within 30 s of leaving ${page.url()}`)
}

function tabOf(page: Page): Tab {
  return {
    goto: (url) => navigate(page, `location.href = ${JSON.stringify(url)}`),
    // A restored page fires no load event: the page goes back by itself, and the test waits on
    // what it shows.
    back: async () => {
      await page.evaluate(() => void setTimeout(() => history.back(), 0))
    },
    reload: () => navigate(page, 'location.reload()'),
    evaluate: (fn, arg) => page.evaluate(fn as (arg: unknown) => never, arg) as never,
    press: (key) => page.keyboard.press(key),
    close: () => page.close(),
  }
}

function sessionOf(context: BrowserContext): Session {
  return {
    async open(url) {
      const page = await context.newPage()
      await page.goto(url, { waitUntil: 'load' })
      return tabOf(page)
    },
    close: () => context.close(),
  }
}

export async function launchFirefox(): Promise<Engine> {
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: BINARY,
    headless: true,
    extraPrefsFirefox: {
      'intl.accept_languages': 'en-US',
      'intl.locale.requested': 'en-US',
      // A closed network: no captive-portal or connectivity probes to hosts it cannot reach.
      'network.captive-portal-service.enabled': false,
      'network.connectivity-service.enabled': false,
      // The site's other host names, resolved to loopback.
      'network.dns.localDomains': SITE_HOSTS.join(','),
    },
  })
  return {
    name: 'firefox',
    version: await browser.version(),
    newSession: async () => sessionOf(await browser.createBrowserContext()),
    close: () => browser.close(),
  }
}

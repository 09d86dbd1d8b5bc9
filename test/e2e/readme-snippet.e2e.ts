// The README's script-tag snippet and the calls it shows (docs/examples/script-tag/, which
// test/examples.test.ts keeps equal to the README's blocks), run verbatim in Chromium with the
// calls made before the script has loaded: nothing throws (`Referral.on` is there at once), the
// panel shows the identified user's link, and the event handler hears the signup being recorded.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { launch, watchedPage } from './support/browser.ts'
import { startHostOrigin, startServiceOrigin } from './support/servers.ts'

const EXAMPLES = join(import.meta.dirname, '../../docs/examples/script-tag')
const example = (file: string) => readFileSync(join(EXAMPLES, file), 'utf8')

let browser: Browser
let service: Awaited<ReturnType<typeof startServiceOrigin>>
let host: Awaited<ReturnType<typeof startHostOrigin>>

beforeAll(async () => {
  browser = await launch()
  service = await startServiceOrigin()
  host = await startHostOrigin()
})
afterAll(async () => {
  await browser?.close()
  await service?.close()
  await host?.close()
})

it('the README’s snippet and calls work as copied, the calls made before the script loads', async () => {
  const snippet = example('index.html')
  const calls = example('calls.js')
  const stub = snippet.split('\n').find((line) => line.startsWith('<script>'))
  expect(stub, 'the snippet has an inline stub').toBeDefined()
  // Only the placeholders change: the service's address (the suite's serves the build as
  // it is), and no integrity hash to fill in.
  const html = snippet
    .replace('https://YOUR-SERVICE/v<build>/', `${service.url}/`)
    .replace(/\s*integrity="sha384-…" crossorigin="anonymous"/, '')
    .replace(
      `${stub}\n`,
      `${stub}\n<script>\n${calls}window.__callsMadeBeforeLoad = typeof window.__referralWidgetLoaded === 'undefined'\n</script>\n`,
    )
  expect(html).not.toContain('YOUR-SERVICE')

  const context = await browser.newContext()
  const { page, log } = await watchedPage(context)
  await page.goto(host.page('/readme', { html: `<!doctype html><title>Shop</title>\n${html}` }))

  await page.locator('[data-part="root"][data-state="ready"]').waitFor()
  expect(
    await page.evaluate(
      () => (window as { __callsMadeBeforeLoad?: boolean }).__callsMadeBeforeLoad,
    ),
  ).toBe(true)
  await expect.poll(() => log.console).toContain('log: recorded signup')
  const link = await page.locator('[data-part="link"]').inputValue()
  expect(link).toMatch(/\?ref=[A-Za-z0-9]{8,12}$/)
  expect(log.errors).toEqual([])
  await context.close()
})

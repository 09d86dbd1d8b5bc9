// The README's Next.js page (docs/examples/next/app/page.tsx), a Server Component rendering the
// React component, in an App Router app built with `next build` and served by `next start`: the
// build prerenders it (the entry is a client module), the server's HTML holds only the empty
// mount point, and in Chromium the panel mounts after hydration, with no hydration warning.
import { expect, it } from 'vitest'
import { example } from './support/example-apps.ts'
import { FAST, useHarness } from './support/harness.ts'
import { READY_ROOT } from './support/in-page.ts'
import { startNextApp } from './support/next-app.ts'

const h = useHarness()

it('a Next.js page renders the React component: empty on the server, the panel after hydration', {
  timeout: 120_000,
}, async () => {
  const app = await startNextApp({
    'app/page.tsx': example('next/app/page.tsx', h.service.url),
    'app/layout.tsx': example('next/app/layout.tsx'),
  })
  try {
    h.allow(app.url)
    // Prerendered at build time (a server-only module would have failed the build here).
    expect(app.output.join('\n')).toMatch(/○ \/\s/)

    const html = await (await fetch(app.url)).text()
    expect(html).toContain('<div data-referral-widget=""></div>')
    expect(html).not.toContain('data-part=')
    expect(html).not.toContain('shadowroot')

    const context = await h.newContext()
    const { page, log } = await h.open(context)
    await page.goto(app.url)
    await page.locator(READY_ROOT).waitFor()
    const code = await h.linkCode('user_123')
    await expect
      .poll(() => page.locator('[data-part="link"]').inputValue(), FAST)
      .toBe(`${app.url}/?ref=${code}`)
    expect(log.console.filter((line) => /hydrat/i.test(line))).toEqual([])
    expect(log.console.filter((line) => /^(error|warning):/.test(line))).toEqual([])
  } finally {
    await app.close()
  }
})

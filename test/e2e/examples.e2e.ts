// The README's examples for each way in (docs/examples/), built with Vite into small apps as users
// copy them and run in Chromium against the local service: the React, Preact and Vue examples and
// the custom element in a plain page show the signed-in user's panel, none of those apps installs
// more than its framework (no Preact beside React or Vue), and the single-page app's sign-up
// example records the sign-up of a visitor who arrived through a link.

import { join } from 'node:path'
import { expect, it } from 'vitest'
import {
  appPage,
  buildApp,
  EXAMPLES,
  type ExampleApp,
  example,
  serveApp,
} from './support/example-apps.ts'
import { FAST, useHarness } from './support/harness.ts'
import { READY_ROOT } from './support/in-page.ts'

const h = useHarness()

/** Builds and opens the app; resolves once its panel is ready, with the user's link in it. */
async function openApp(app: ExampleApp, userId: string) {
  const files = await buildApp(app)
  const context = await h.newContext()
  const { page, log } = await h.open(context)
  await page.goto(serveApp(h.host, files))
  await page.locator(READY_ROOT).waitFor()
  const code = await h.linkCode(userId)
  await expect
    .poll(() => page.locator('[data-part="link"]').inputValue(), FAST)
    .toBe(`${h.host.url}/?ref=${code}`)
  return { page, log }
}

it('the React example, in a Vite app with React alone installed', async () => {
  const { log } = await openApp(
    {
      files: {
        'index.html': appPage('main.tsx'),
        'Account.tsx': example('react/Account.tsx', h.service.url),
        'main.tsx': `import { createRoot } from 'react-dom/client'
import { Account } from './Account.tsx'
createRoot(document.getElementById('app') as HTMLElement).render(<Account user={{ id: 'alice' }} />)
`,
      },
      packages: { react: 'react', 'react-dom': 'react-dom' },
      config: { oxc: { jsx: { runtime: 'automatic', importSource: 'react', development: false } } },
    },
    'alice',
  )
  expect(log.console.filter((line) => line.startsWith('error'))).toEqual([])
})

it('the Preact example, in a Vite app with Preact', async () => {
  const { log } = await openApp(
    {
      files: {
        'index.html': appPage('main.tsx'),
        'Account.tsx': example('preact/Account.tsx', h.service.url),
        'main.tsx': `import { render } from 'preact'
import { Account } from './Account.tsx'
render(<Account user={{ id: 'alice' }} />, document.getElementById('app') as HTMLElement)
`,
      },
      packages: { preact: 'preact' },
      config: {
        oxc: { jsx: { runtime: 'automatic', importSource: 'preact', development: false } },
      },
    },
    'alice',
  )
  expect(log.console.filter((line) => line.startsWith('error'))).toEqual([])
})

it('the Vue example and its vite.config.ts, in a Vue app without Preact installed', async () => {
  const { page } = await openApp(
    {
      files: {
        'index.html': appPage('main.ts'),
        'ReferralPanel.vue': example('vue/ReferralPanel.vue', h.service.url),
        'main.ts': `import { createApp } from 'vue'
import ReferralPanel from './ReferralPanel.vue'
createApp(ReferralPanel, { user: { id: 'alice' }, theme: 'dark' }).mount('#app')
`,
      },
      packages: { vue: 'vue' },
      config: { configFile: join(EXAMPLES, 'vue/vite.config.ts') },
    },
    'alice',
  )
  // Bound attributes and the messages property reach the element.
  expect(await page.locator(READY_ROOT).getAttribute('data-theme')).toBe('dark')
  expect(await page.locator('[data-part="copy"]').textContent()).toBe('Copy link')
})

it('the custom element in a plain page, and the single-page app’s sign-up with the core', async () => {
  const bob = await h.linkCode('bob')
  // The app's own API: creates the account.
  h.host.page('/api/users', { html: '{"id":"carol"}', type: 'application/json' })
  const files = await buildApp({
    files: {
      'index.html': appPage(
        'main.ts',
        `${example('custom-element/index.html', h.service.url)}\n<button id="sign-up">Sign up</button>`,
      ),
      'element.ts': example('custom-element/main.ts'),
      'signup.ts': example('spa/signup.ts', h.service.url),
      'main.ts': `import './element.ts'
import { signUp } from './signup.ts'
document.getElementById('sign-up')?.addEventListener('click', () => {
  void signUp('carol@example.test', 'secret').then((user) => {
    document.body.dataset.signedUp = user.id
  })
})
`,
    },
    packages: {},
  })
  const context = await h.newContext()
  const { page } = await h.open(context)
  await page.goto(serveApp(h.host, files, `?ref=${bob}`))

  // A visitor arriving through bob's link: the banner greets them, user_123's panel is ready.
  await page.locator('[data-part="banner"]').waitFor()
  await page.locator(READY_ROOT).waitFor()
  await page.locator('#sign-up').click()
  await page.locator('body[data-signed-up="carol"]').waitFor()
  await expect.poll(() => h.stats(), FAST).toMatchObject({ totalClicks: 1, totalConversions: 1 })
})

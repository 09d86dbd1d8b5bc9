// What an app's own bundle gets from each entry, built with Vite against the built package (the
// suite's global setup builds it) the way an installed copy resolves: the headless core carries
// no Preact and no UI code, the React entry and the custom element need no Preact installed
// (examples.e2e.ts runs them in such apps), and a bare `createReferral(…)` call, which captures
// the visitor's referral code, is kept.
import { describe, expect, it } from 'vitest'
import { buildConsumer } from '../../scripts/consumers.mjs'

const KEY = `{ publicKey: 'pk_test_acme', apiBase: 'https://api.example.test' }`
const UI_MARKERS = ['attachShadow', 'data-part', 'adoptedStyleSheets']
/** A regular expression in Preact 10's code (what it sets without a px unit). */
const PREACT_10_MARKER = 'acit|ex(?:s|g|n|p|$)'
const REACT = { react: 'react', 'react-dom': 'react-dom' }

const reactApp = (imports: string, element: string) =>
  `${imports}import { createElement as h } from 'react'\nimport { createRoot } from 'react-dom/client'\ncreateRoot(document.body).render(${element})\n`

describe('the headless core in an app', () => {
  it('a React app without Preact installed builds from referral-widget/core, with no UI code', async () => {
    const { js } = await buildConsumer(
      reactApp(
        `import { createReferral } from 'referral-widget/core'\nwindow.r = createReferral(${KEY})\n`,
        `h('div')`,
      ),
      REACT,
    )
    expect(js).toContain('/v1/events')
    for (const marker of UI_MARKERS) expect(js).not.toContain(marker)
  })

  it('importing createReferral from the main entry brings the core and not one byte of Preact', async () => {
    const code = (from: string) =>
      `import { createReferral } from '${from}'\nwindow.r = createReferral(${KEY})\n`
    // Preact installed and importable, yet the output is the core-only app's (give or take the
    // order of its modules), and has none of Preact's code, which the component brings.
    const main = await buildConsumer(code('referral-widget'), { preact: 'preact' })
    const core = await buildConsumer(code('referral-widget/core'), {})
    const component = await buildConsumer(
      `import { h, render } from 'preact'\nimport { ReferralWidget } from 'referral-widget'\nrender(h(ReferralWidget, ${KEY}), document.body)\n`,
      { preact: 'preact' },
    )
    expect(component.js).toContain(PREACT_10_MARKER)
    expect(main.js).not.toContain(PREACT_10_MARKER)
    for (const marker of UI_MARKERS) expect(main.js).not.toContain(marker)
    expect(Math.abs(main.js.length - core.js.length)).toBeLessThan(100)
  })

  it('a bare createReferral(…) call survives tree shaking', async () => {
    const { js } = await buildConsumer(
      `import { createReferral } from 'referral-widget/core'\ncreateReferral(${KEY})\n`,
    )
    expect(js).toContain('/v1/events')
  })
})

describe('the UI entries in an app', () => {
  it('referral-widget/react builds in a React app without Preact installed, bringing its own', async () => {
    const { js } = await buildConsumer(
      reactApp(
        `import { ReferralWidget } from 'referral-widget/react'\n`,
        `h(ReferralWidget, ${KEY})`,
      ),
      REACT,
    )
    for (const marker of UI_MARKERS) expect(js).toContain(marker)
  })

  it('the components build against Preact 11, beside the custom element and its own Preact', async () => {
    const { js } = await buildConsumer(
      `import { h, render } from 'preact'\nimport 'referral-widget/custom-element'\nimport { ReferralWidget } from 'referral-widget'\nrender(h(ReferralWidget, ${KEY}), document.body)\n`,
      { preact: 'preact11' },
    )
    for (const marker of UI_MARKERS) expect(js).toContain(marker)
  })
})

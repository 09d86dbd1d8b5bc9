// @vitest-environment happy-dom
// The referrer's results in the panel (a service extension): the friends who joined and the
// rewards earned for the link shown, in the language's plural forms, and overridable. The panel
// runs against the in-process reference service (test/support/harness.ts) with fake time.
import { describe, expect, it } from 'vitest'
import { settle } from '../../test/support/dom.ts'
import {
  part,
  readyPanel,
  rootOf,
  showSummary,
  text,
  useUiWorld,
} from '../../test/support/ui-world.ts'

useUiWorld()

// --- the referrer's results (service extension) --------------------------------------------

describe('summary', () => {
  const show = showSummary

  it('none: no summary part (a service without the extension, or no token)', async () => {
    const { host } = await readyPanel()
    expect(part(host, 'summary')).toBeNull()
    expect(rootOf(host).getAttribute('data-state')).toBe('ready')
  })

  it.each([
    [0, 0, '0 friends joined'],
    [1, 10, '1 friend joined · $10 earned'],
    [3, 30, '3 friends joined · $30 earned'],
  ])('%i signed up, $%i earned: "%s"', async (signups, amount, expected) => {
    const { core, host, link } = await readyPanel()
    show(core, { code: link.code, signups, rewardsEarned: { amount, currency: 'USD' } })
    await settle()
    expect(text(host, 'summary')).toBe(expected)
  })

  it('only for the link shown: figures of another code are not shown', async () => {
    const { core, host } = await readyPanel()
    show(core, { code: 'ZZZZ9999', signups: 5 })
    await settle()
    expect(part(host, 'summary')).toBeNull()
  })

  it.each([
    ['pl', 3, 'PLN', '3 znajomi dołączyli · zarobiono 30 zł'],
    ['pl', 5, 'PLN', '5 znajomych dołączyło · zarobiono 30 zł'],
    ['ar', 2, 'USD', 'انضم صديقان · ربحت ‏30 US$'],
    ['de', 1, 'EUR', '1 Freund ist beigetreten · 30 € verdient'],
    ['ja', 4, 'JPY', '4人の友達が参加しました · ￥30を獲得'],
  ])(
    '%s: %i friends, in the language’s plural form and currency',
    async (locale, signups, currency, expected) => {
      const { core, host, link } = await readyPanel({}, { locale })
      show(core, { code: link.code, signups, rewardsEarned: { amount: 30, currency } })
      await settle()
      expect(text(host, 'summary')?.replace(/\s/g, ' ')).toBe(expected.replace(/\s/g, ' '))
    },
  )

  it('overridable through messages, plural forms included', async () => {
    const { core, host, link } = await readyPanel(
      {},
      {
        messages: {
          summary: { one: 'One pal', other: '{count} pals' },
          summaryEarned: '{amount}!',
        },
      },
    )
    show(core, { code: link.code, signups: 2, rewardsEarned: { amount: 5, currency: 'USD' } })
    await settle()
    expect(text(host, 'summary')).toBe('2 pals · $5!')
  })
})

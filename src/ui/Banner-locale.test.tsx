// @vitest-environment happy-dom
// The referred visitor's banner (WIDGET.md section 3, `banner`) in the visitor's locale and
// direction, in each theme, with the host's message, and with markup that stays text.
import { describe, expect, it } from 'vitest'
import {
  arrive,
  banner,
  createTestCampaign as createCampaign,
  dismissButton,
  HOSTILE,
  sentence,
  shadow,
  useUiWorld,
} from '../../test/support/ui-world.ts'

useUiWorld()

describe('locale, direction, theme and text', () => {
  it('German with euros', async () => {
    const campaignId = await createCampaign({
      referrer: { amount: 20, currency: 'EUR' },
      referred: { amount: 15.5, currency: 'EUR' },
    })
    const { host } = await arrive({ campaignId, locale: 'de-DE' })
    expect(sentence(host)).toBe(
      'Du wurdest eingeladen: Melde dich an und erhalte 15,50\u00a0€ Guthaben',
    )
    expect(dismissButton(host)?.getAttribute('aria-label')).toBe('Schließen')
  })

  it('yen without decimals, in Japanese', async () => {
    const campaignId = await createCampaign({
      referrer: { amount: 1000, currency: 'JPY' },
      referred: { amount: 500, currency: 'JPY' },
    })
    const { host } = await arrive({ campaignId, locale: 'ja-JP' })
    expect(sentence(host)).toBe('友だちからの招待です：登録すると￥500分のクレジットがもらえます')
  })

  it('Arabic reads right to left', async () => {
    const { host } = await arrive({ locale: 'ar' })
    const shown = banner(host)
    expect(shown?.getAttribute('dir')).toBe('rtl')
    expect(shown?.getAttribute('lang')).toBe('ar')
    expect(shown?.querySelector('p')?.textContent).toMatch(
      /^دعاك صديق: سجّل واحصل على رصيد بقيمة .*(10|١٠)/,
    )
  })

  it('English reads left to right', async () => {
    const { host } = await arrive({ locale: 'en-GB' })
    expect(banner(host)?.getAttribute('dir')).toBe('ltr')
    expect(sentence(host)).toBe('A friend invited you: sign up and get US$10 credit')
  })

  it.each(['light', 'dark', 'auto'] as const)('carries the %s theme', async (theme) => {
    const { host } = await arrive({}, { theme })
    expect(banner(host)?.getAttribute('data-theme')).toBe(theme)
  })

  it('dark looks dark', async () => {
    const { host } = await arrive({ theme: 'dark' })
    const shown = banner(host)
    if (!shown) throw new Error('no banner')
    expect(getComputedStyle(shown).backgroundColor).toBe('#17181c')
  })

  it('the message can be overridden and still gets the amount', async () => {
    const { host } = await arrive({}, { messages: { banner: 'Welcome! {give} is waiting' } })
    expect(sentence(host)).toBe('Welcome! $10 is waiting')
  })

  it('a campaign name with markup stays text', async () => {
    const campaignId = await createCampaign({
      name: HOSTILE,
      referrer: { amount: 10, currency: 'USD' },
      referred: { amount: 10, currency: 'USD' },
    })
    const { host } = await arrive({ campaignId })
    expect(banner(host)?.getAttribute('aria-label')).toBe(HOSTILE)
    expect(shadow(host).querySelector('img')).toBeNull()
  })

  it('a message override with markup stays text', async () => {
    const { host } = await arrive({}, { messages: { banner: `${HOSTILE} {give}` } })
    expect(sentence(host)).toBe(`${HOSTILE} $10`)
    expect(shadow(host).querySelector('img')).toBeNull()
  })
})

// @vitest-environment happy-dom
// The referrer's panel in the visitor's language (WIDGET.md section 3): amounts formatted for the
// locale and currency, right-to-left scripts, the mount option's locale, and messages the host
// overrides. The panel runs against the in-process reference service (test/support/harness.ts)
// with fake time.
import { describe, expect, it } from 'vitest'
import {
  copyButton,
  createCampaign,
  readyPanel,
  rootOf,
  text,
  useUiWorld,
} from '../../test/support/ui-world.ts'

useUiWorld()

// --- locales ---------------------------------------------------------------------------------

describe('locale formatting', () => {
  it('German with euros: comma decimals, the sign after the amount, German text', async () => {
    const campaignId = await createCampaign('sk_test_acme', {
      referrer: { amount: 20, currency: 'EUR' },
      referred: { amount: 15.5, currency: 'EUR' },
    })
    const { host } = await readyPanel({ campaignId, locale: 'de-DE' })

    expect(text(host, 'headline')).toBe('Schenke 15,50\u00a0€, erhalte 20\u00a0€')
    expect(text(host, 'referrer-reward')).toBe('Du erhältst 20\u00a0€ Guthaben')
    expect(text(host, 'referred-reward')).toBe('Deine Freunde erhalten 15,50\u00a0€ Guthaben')
    expect(copyButton(host).textContent).toBe('Link kopieren')
    expect(rootOf(host).getAttribute('lang')).toBe('de-DE')
    expect(rootOf(host).getAttribute('dir')).toBe('ltr')
  })

  it('yen has no minor unit: no decimals in Japanese', async () => {
    const campaignId = await createCampaign('sk_test_acme', {
      referrer: { amount: 1000, currency: 'JPY' },
      referred: { amount: 500, currency: 'JPY' },
    })
    const { host } = await readyPanel({ campaignId, locale: 'ja-JP' })

    expect(text(host, 'headline')).toBe('友だちに￥500、あなたに￥1,000')
    expect(text(host, 'referrer-reward')).toBe('あなたは￥1,000分のクレジットを獲得')
    expect(rootOf(host).textContent).not.toMatch(/\.\d\d/)
  })

  it('yen in English keeps no decimals either', async () => {
    const campaignId = await createCampaign('sk_test_acme', {
      referrer: { amount: 1000, currency: 'JPY' },
      referred: { amount: 500, currency: 'JPY' },
    })
    const { host } = await readyPanel({ campaignId, locale: 'en-US' })
    expect(text(host, 'headline')).toBe('Give ¥500, get ¥1,000')
  })

  it('a fractional amount in dollars shows its cents', async () => {
    const campaignId = await createCampaign('sk_test_acme', {
      referrer: { amount: 12.5, currency: 'USD' },
      referred: { amount: 5, currency: 'USD' },
    })
    const { host } = await readyPanel({ campaignId, locale: 'en-US' })
    expect(text(host, 'headline')).toBe('Give $5, get $12.50')
  })

  it('Arabic: right to left, Arabic text and the amount', async () => {
    const { host } = await readyPanel({ locale: 'ar' })

    const root = rootOf(host)
    expect(root.getAttribute('dir')).toBe('rtl')
    expect(root.getAttribute('lang')).toBe('ar')
    const headline = text(host, 'headline') ?? ''
    expect(headline).toMatch(/^امنح .+ واحصل على .+$/)
    expect(headline).toContain('US$')
    expect(headline).toMatch(/10|١٠/)
    expect(copyButton(host).textContent).toBe('نسخ الرابط')
  })

  it('Arabic (Egypt) amounts use Arabic-Indic digits, still right to left', async () => {
    const { host } = await readyPanel({ locale: 'ar-EG' })
    expect(rootOf(host).getAttribute('dir')).toBe('rtl')
    expect(text(host, 'referrer-reward')).toContain('١٠')
  })

  it('the mount option locale overrides the core locale', async () => {
    const { host } = await readyPanel({ locale: 'en-US' }, { locale: 'fr-FR' })
    expect(text(host, 'headline')).toBe('Offrez 10\u00a0$US, recevez 10\u00a0$US')
    expect(rootOf(host).getAttribute('lang')).toBe('fr-FR')
  })

  it('an unknown language falls back to English text with local number formatting', async () => {
    const campaignId = await createCampaign('sk_test_acme', {
      referrer: { amount: 1234.5, currency: 'EUR' },
      referred: { amount: 10, currency: 'EUR' },
    })
    const { host } = await readyPanel({ campaignId, locale: 'sv-SE' })
    expect(text(host, 'referrer-reward')).toBe('You get 1\u00a0234,50\u00a0€ credit')
  })
})

// --- messages --------------------------------------------------------------------------------

describe('messages', () => {
  it('a host can override one message and keep the rest', async () => {
    const { host } = await readyPanel({}, { messages: { copy: 'Grab it' } })
    expect(copyButton(host).textContent).toBe('Grab it')
    expect(text(host, 'headline')).toBe('Give $10, get $10')
  })

  it('an overridden template still gets the amounts', async () => {
    const { host } = await readyPanel({}, { messages: { headline: 'Invite & earn {get}' } })
    expect(text(host, 'headline')).toBe('Invite & earn $10')
  })

  it('overrides apply on top of the locale', async () => {
    const { host } = await readyPanel({ locale: 'de' }, { messages: { copy: 'Kopieren!' } })
    expect(copyButton(host).textContent).toBe('Kopieren!')
    expect(text(host, 'referrer-reward')).toBe('Du erhältst 10\u00a0$ Guthaben')
  })
})

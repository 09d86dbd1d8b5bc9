// @vitest-environment happy-dom
// The share row of a campaign that rewards the friend's first purchase (a service extension): the
// email, X, WhatsApp, LinkedIn and native share texts promise the credit with the first purchase,
// never at sign-up, in the visitor's language; a signup campaign shares what it always did; a
// page's overrides (`messages`, `data-messages`) reach both kinds of text.
import { beforeEach, describe, expect, it, type Mock, vi } from 'vitest'
import { settle } from '../../test/support/dom.ts'
import {
  createFirstOrderCampaign as createCampaign,
  mountPanelHost,
  open,
  teardown,
  useUiWorld,
} from '../../test/support/ui-world.ts'
import { readUiAttributes } from '../embed/ui-attributes.ts'
import { formatReward } from './format.ts'
import { BUILT_IN, type Messages, message } from './messages/index.ts'
import { UI_LANGUAGES } from './messages/languages.ts'
import type { UiOptions } from './mount.ts'

const NETWORKS = ['email', 'x', 'whatsapp', 'linkedin'] as const

/** The friend's reward as the panel writes it. */
const fifteen = (locale: string) =>
  formatReward({ type: 'credit', amount: 15, currency: 'USD' }, locale)

/** The browser's share sheet: what the native share button hands it. */
let share: Mock<(data: ShareData) => Promise<void>>

useUiWorld()

beforeEach(() => {
  share = vi.fn((_data: ShareData) => Promise.resolve())
  Object.defineProperty(navigator, 'share', { value: share, configurable: true })
  teardown.push(() => Reflect.deleteProperty(navigator, 'share'))
})

/** What alice's panel shares on each channel, as the visitor's browser would get it. */
async function shares(campaignId: string, ui: UiOptions = {}) {
  const core = open({ userId: 'alice', campaignId })
  const element = mountPanelHost(core, ui)
  await settle()
  const { url } = await core.getLink()
  const row = element.shadowRoot?.querySelector('[data-part="share"]')
  const href = (network: string) =>
    new URL(row?.querySelector(`a[data-network="${network}"]`)?.getAttribute('href') ?? '')
  const texts: Record<string, string | null> = {
    subject: href('email').searchParams.get('subject'),
  }
  for (const network of NETWORKS)
    texts[network] = href(network).searchParams.get(network === 'email' ? 'body' : 'text')
  row?.querySelector<HTMLButtonElement>('[data-network="native"]')?.click()
  await settle()
  texts.native = share.mock.calls.at(-1)?.[0].text ?? null
  return { url, texts }
}

describe('a purchase campaign shares the credit with the first purchase', () => {
  it('en: every channel', async () => {
    const { url, texts } = await shares(await createCampaign('purchase'), { locale: 'en-US' })
    expect(texts).toEqual({
      subject: 'A gift for you: $15 credit',
      email: `Hi! Sign up with my link and get $15 credit on your first purchase: ${url}`,
      x: `Get $15 credit on your first purchase when you sign up with my link: ${url}`,
      whatsapp: `Hey, sign up with my link and get $15 credit on your first purchase: ${url}`,
      linkedin: `I recommend it: sign up with my link and get $15 credit on your first purchase. ${url}`,
      native: 'Sign up with my link and get $15 credit on your first purchase.',
    })
  })

  it('ja: every channel', async () => {
    const { url, texts } = await shares(await createCampaign('purchase', 'JPY'), { locale: 'ja' })
    expect(texts).toEqual({
      subject: 'プレゼント：￥15分のクレジット',
      email: `こんにちは！私のリンクから登録して初回購入すると￥15分のクレジットがもらえます：${url}`,
      x: `このリンクから登録して初回購入すると￥15分のクレジットがもらえます ${url}`,
      whatsapp: `私のリンクから登録して初回購入すると￥15分のクレジットがもらえるよ：${url}`,
      linkedin: `おすすめです。私のリンクから登録して初回購入すると￥15分のクレジットがもらえます。${url}`,
      native: '私のリンクから登録して初回購入すると￥15分のクレジットがもらえます。',
    })
  })

  it('ar: every channel, right to left', async () => {
    const { url, texts } = await shares(await createCampaign('purchase'), { locale: 'ar' })
    const give = fifteen('ar')
    expect(texts).toEqual({
      subject: `هدية لك: رصيد بقيمة ${give}`,
      email: `مرحبًا! سجّل عبر رابطي واحصل على رصيد بقيمة ${give} عند أول عملية شراء: ${url}`,
      x: `احصل على رصيد بقيمة ${give} عند أول عملية شراء بعد التسجيل عبر رابطي: ${url}`,
      whatsapp: `سجّل عبر رابطي واحصل على رصيد بقيمة ${give} عند أول عملية شراء: ${url}`,
      linkedin: `أنصحك به: سجّل عبر رابطي واحصل على رصيد بقيمة ${give} عند أول عملية شراء. ${url}`,
      native: `سجّل عبر رابطي واحصل على رصيد بقيمة ${give} عند أول عملية شراء.`,
    })
  })

  it('de: the informal register of every channel', async () => {
    const { url, texts } = await shares(await createCampaign('purchase', 'EUR'), { locale: 'de' })
    expect(texts.x).toBe(
      `Hol dir 15\u00a0€ Guthaben bei deinem ersten Einkauf, wenn du dich über meinen Link anmeldest: ${url}`,
    )
    expect(texts.native).toBe(
      'Melde dich über meinen Link an und erhalte 15\u00a0€ Guthaben bei deinem ersten Einkauf.',
    )
  })

  it.each(UI_LANGUAGES)('%s: each channel says its purchase text', async (language) => {
    const { url, texts } = await shares(await createCampaign('purchase'), { locale: language })
    const built = BUILT_IN[language] as Messages
    const give = fifteen(language)
    expect(texts.email).toBe(message(built.emailBodyPurchase, { give, url }))
    expect(texts.x).toBe(message(built.xTextPurchase, { give, url }))
    expect(texts.whatsapp).toBe(message(built.whatsappTextPurchase, { give, url }))
    expect(texts.linkedin).toBe(message(built.linkedinTextPurchase, { give, url }))
    expect(texts.native).toBe(message(built.nativeTextPurchase, { give }))
  })
})

describe('a signup campaign shares what it always did', () => {
  it('en, byte for byte', async () => {
    const { url, texts } = await shares(await createCampaign('signup'), { locale: 'en-US' })
    expect(texts).toEqual({
      subject: 'A gift for you: $15 credit',
      email: `Hi! Sign up with my link and get $15 credit: ${url}`,
      x: `Get $15 credit when you sign up with my link: ${url}`,
      whatsapp: `Hey, sign up with my link and get $15 credit: ${url}`,
      linkedin: `I recommend it: sign up with my link and get $15 credit. ${url}`,
      native: 'Sign up with my link and get $15 credit.',
    })
  })

  it('ja, byte for byte', async () => {
    const { url, texts } = await shares(await createCampaign('signup', 'JPY'), { locale: 'ja' })
    expect(texts).toEqual({
      subject: 'プレゼント：￥15分のクレジット',
      email: `こんにちは！私のリンクから登録すると￥15分のクレジットがもらえます：${url}`,
      x: `このリンクから登録すると￥15分のクレジットがもらえます ${url}`,
      whatsapp: `私のリンクから登録すると￥15分のクレジットがもらえるよ：${url}`,
      linkedin: `おすすめです。私のリンクから登録すると￥15分のクレジットがもらえます。${url}`,
      native: '私のリンクから登録すると￥15分のクレジットがもらえます。',
    })
  })

  it('ar, byte for byte', async () => {
    const { url, texts } = await shares(await createCampaign('signup'), { locale: 'ar' })
    const give = fifteen('ar')
    expect(texts).toEqual({
      subject: `هدية لك: رصيد بقيمة ${give}`,
      email: `مرحبًا! سجّل عبر رابطي واحصل على رصيد بقيمة ${give}: ${url}`,
      x: `احصل على رصيد بقيمة ${give} عند التسجيل عبر رابطي: ${url}`,
      whatsapp: `سجّل عبر رابطي واحصل على رصيد بقيمة ${give}: ${url}`,
      linkedin: `أنصحك به: سجّل عبر رابطي واحصل على رصيد بقيمة ${give}. ${url}`,
      native: `سجّل عبر رابطي واحصل على رصيد بقيمة ${give}.`,
    })
  })

  it.each(UI_LANGUAGES)('%s: each channel says its signup text', async (language) => {
    const { url, texts } = await shares(await createCampaign('signup'), { locale: language })
    const built = BUILT_IN[language] as Messages
    const give = fifteen(language)
    expect(texts.email).toBe(message(built.emailBody, { give, url }))
    expect(texts.x).toBe(message(built.xText, { give, url }))
    expect(texts.whatsapp).toBe(message(built.whatsappText, { give, url }))
    expect(texts.linkedin).toBe(message(built.linkedinText, { give, url }))
    expect(texts.native).toBe(message(built.nativeText, { give }))
  })
})

describe("the page's overrides", () => {
  const overrides = {
    xText: 'Join Acme with my link, {give} off: {url} #acme',
    xTextPurchase: 'Shop at Acme with my link, {give} off your first order: {url} #acme',
    nativeTextPurchase: 'First Acme order? {give} off with my link.',
  }

  it('a purchase campaign takes the purchase texts the page gives', async () => {
    const { url, texts } = await shares(await createCampaign('purchase'), { messages: overrides })
    expect(texts.x).toBe(`Shop at Acme with my link, $15 off your first order: ${url} #acme`)
    expect(texts.native).toBe('First Acme order? $15 off with my link.')
    // A channel the page left alone keeps the built-in purchase text.
    expect(texts.whatsapp).toBe(
      `Hey, sign up with my link and get $15 credit on your first purchase: ${url}`,
    )
  })

  it('a signup campaign takes the signup texts and ignores the purchase ones', async () => {
    const { url, texts } = await shares(await createCampaign('signup'), { messages: overrides })
    expect(texts.x).toBe(`Join Acme with my link, $15 off: ${url} #acme`)
    expect(texts.native).toBe('Sign up with my link and get $15 credit.')
  })

  it('overriding a signup text alone never puts the sign-up promise in a purchase campaign', async () => {
    const { url, texts } = await shares(await createCampaign('purchase'), {
      messages: { xText: overrides.xText },
    })
    expect(texts.x).toBe(
      `Get $15 credit on your first purchase when you sign up with my link: ${url}`,
    )
  })

  it('data-messages carries the purchase texts as it reads them', async () => {
    const { messages, problems } = readUiAttributes({ messages: JSON.stringify(overrides) })
    expect(problems).toEqual([])
    const { url, texts } = await shares(await createCampaign('purchase'), { messages })
    expect(texts.x).toBe(`Shop at Acme with my link, $15 off your first order: ${url} #acme`)
  })
})

// @vitest-environment happy-dom
// A campaign that rewards the friend's first purchase (a service extension): the panel and the
// banner say what earns the reward, in the visitor's language, and the referrer's results count
// the friends who bought. A campaign of any other trigger reads as it always did.
import { describe, expect, it } from 'vitest'
import { settle } from '../../test/support/dom.ts'
import {
  arrive as arriveThroughLink,
  attach,
  type Core,
  createFirstOrderCampaign as createCampaign,
  open,
  readyPanel,
  showSummary,
  useUiWorld,
} from '../../test/support/ui-world.ts'
import { mountBanner, mountPanel, type UiOptions } from './mount.ts'

useUiWorld()

function host(attribute: string, core: Core, ui: UiOptions | undefined, panel: boolean) {
  return attach(attribute, panel ? mountPanel : mountBanner, core, ui)
}

const partText = (element: Element, name: string) =>
  element.shadowRoot?.querySelector(`[data-part="${name}"]`)?.textContent?.replace(/\s/g, ' ')

/** alice's panel for the campaign, in `locale`. */
async function panel(campaignId: string, locale = 'en-US') {
  const { core, host: element, link } = await readyPanel({ campaignId }, { locale })
  return { core, element, link }
}

/** A visitor arriving through alice's link, with the banner. */
async function arrive(campaignId: string, locale = 'en-US') {
  return (await arriveThroughLink({ campaignId }, { locale })).host
}

describe('the panel of a purchase campaign says the first purchase earns the rewards', () => {
  it.each([
    [
      'en-US',
      'USD',
      'You get $20 credit when your friend makes their first purchase',
      'Your friend gets $15 credit on their first purchase',
    ],
    [
      'de-DE',
      'EUR',
      'Du erhältst 20 € Guthaben, wenn deine Freunde zum ersten Mal einkaufen',
      'Deine Freunde erhalten 15 € Guthaben bei ihrem ersten Einkauf',
    ],
    [
      'ja-JP',
      'JPY',
      '友だちの初回購入で、あなたは￥20分のクレジットを獲得',
      '友だちは初回購入時に￥15分のクレジットを獲得',
    ],
    [
      'pl-PL',
      'PLN',
      'Otrzymujesz 20 zł do wykorzystania, gdy znajomy zrobi pierwsze zakupy',
      'Twój znajomy otrzymuje 15 zł do wykorzystania przy pierwszych zakupach',
    ],
  ])('%s', async (locale, currency, referrer, referred) => {
    const { element } = await panel(await createCampaign('purchase', currency), locale)
    expect(partText(element, 'referrer-reward')).toBe(referrer)
    expect(partText(element, 'referred-reward')).toBe(referred)
  })

  it('a signup campaign reads as it always did', async () => {
    const { element } = await panel(await createCampaign('signup'))
    expect(partText(element, 'headline')).toBe('Give $15, get $20')
    expect(partText(element, 'referrer-reward')).toBe('You get $20 credit')
    expect(partText(element, 'referred-reward')).toBe('Your friend gets $15 credit')
  })

  it('the host may reword it through messages', async () => {
    const core = open({ userId: 'alice', campaignId: await createCampaign('purchase') })
    const element = host(
      'data-referral-widget',
      core,
      { messages: { referrerRewardPurchase: '{get} for you once they order' } },
      true,
    )
    await settle()
    expect(partText(element, 'referrer-reward')).toBe('$20 for you once they order')
  })
})

describe('the banner of a purchase campaign', () => {
  const sentence = (element: Element) =>
    element.shadowRoot?.querySelector('[data-part="banner"] p')?.textContent?.replace(/\s/g, ' ')

  it.each([
    ['en-US', 'USD', 'A friend invited you: get $15 credit on your first purchase'],
    ['fr-FR', 'EUR', 'Un ami vous invite : recevez 15 € de crédit à votre premier achat'],
    ['es-ES', 'EUR', 'Un amigo te invitó: recibe 15 € de crédito en tu primera compra'],
  ])('%s', async (locale, currency, expected) => {
    const element = await arrive(await createCampaign('purchase', currency), locale)
    expect(sentence(element)).toBe(expected)
  })

  it('of a signup campaign reads as it always did', async () => {
    const element = await arrive(await createCampaign('signup'))
    expect(sentence(element)).toBe('A friend invited you: sign up and get $15 credit')
  })
})

describe("the referrer's results in a purchase campaign", () => {
  const show = (core: Core, figures: Parameters<typeof showSummary>[1]) =>
    showSummary(core, figures, 'camp_x')

  it.each([
    ['en-US', 3, 1, 20, '3 friends joined · 1 bought · $20 earned'],
    ['en-US', 2, 0, 0, '2 friends joined · 0 bought'],
    ['de-DE', 3, 2, 40, '3 Freunde sind beigetreten · 2 haben eingekauft · 40 $ verdient'],
    ['ar', 2, 2, 0, 'انضم صديقان · اشترى صديقان'],
  ])('%s: %i joined, %i bought', async (locale, signups, buyers, amount, expected) => {
    const { core, element, link } = await panel(await createCampaign('purchase'), locale)
    show(core, { code: link.code, signups, buyers, rewardsEarned: { amount, currency: 'USD' } })
    await settle()
    expect(partText(element, 'summary')).toBe(expected.replace(/\s/g, ' '))
  })

  it('a service without purchases (no buyers in the answer): the friends who joined only', async () => {
    const { core, element, link } = await panel(await createCampaign('purchase'))
    show(core, { code: link.code, signups: 2 })
    await settle()
    expect(partText(element, 'summary')).toBe('2 friends joined')
  })

  it('a signup campaign does not speak of buying', async () => {
    const { core, element, link } = await panel(await createCampaign('signup'))
    show(core, { code: link.code, signups: 2, buyers: 0 })
    await settle()
    expect(partText(element, 'summary')).toBe('2 friends joined')
  })
})

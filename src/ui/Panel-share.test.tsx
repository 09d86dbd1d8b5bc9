// @vitest-environment happy-dom
// The referrer's panel's share row (WIDGET.md section 3): email, X, WhatsApp and LinkedIn links
// with their own texts, shareUtm, the QR code and the native share button. The panel runs against
// the in-process reference service (test/support/harness.ts) with fake time.
import { describe, expect, it, vi } from 'vitest'
import { settle } from '../../test/support/dom.ts'
import {
  createCampaign,
  mustPart,
  part,
  readyPanel,
  shadow,
  teardown,
  text,
  useUiWorld,
} from '../../test/support/ui-world.ts'

useUiWorld()

// --- share -----------------------------------------------------------------------------------

describe('share links', () => {
  const subject = 'A gift for you: $10 credit'

  function network(host: Element, name: string): HTMLAnchorElement {
    const anchor = mustPart(host, 'share').querySelector<HTMLAnchorElement>(
      `a[data-network="${name}"]`,
    )
    if (!anchor) throw new Error(`no ${name} share link`)
    return anchor
  }
  /** The text a channel's link carries: the mailto body or the `text` parameter. */
  function shared(host: Element, name: string): string {
    const url = new URL(network(host, name).getAttribute('href') ?? '')
    return url.searchParams.get(name === 'email' ? 'body' : 'text') ?? ''
  }

  it('email: a mailto with its own subject and body, the URL in the body', async () => {
    const { host, link } = await readyPanel()
    const href = network(host, 'email').getAttribute('href') ?? ''

    expect(href.startsWith('mailto:?')).toBe(true)
    const params = new URL(href).searchParams
    expect(params.get('subject')).toBe(subject)
    expect(params.get('body')).toBe(`Hi! Sign up with my link and get $10 credit: ${link.url}`)
  })

  it('X, WhatsApp and LinkedIn each carry their own text with the share URL', async () => {
    const { host, link } = await readyPanel()
    expect(new URL(network(host, 'x').href).origin).toBe('https://x.com')
    expect(shared(host, 'x')).toBe(`Get $10 credit when you sign up with my link: ${link.url}`)
    expect(new URL(network(host, 'whatsapp').href).origin).toBe('https://wa.me')
    expect(shared(host, 'whatsapp')).toBe(
      `Hey, sign up with my link and get $10 credit: ${link.url}`,
    )
    expect(new URL(network(host, 'linkedin').href).origin).toBe('https://www.linkedin.com')
    expect(shared(host, 'linkedin')).toBe(
      `I recommend it: sign up with my link and get $10 credit. ${link.url}`,
    )
    const texts = ['email', 'x', 'whatsapp', 'linkedin'].map((name) => shared(host, name))
    expect(new Set(texts).size).toBe(4)
  })

  it('each channel’s text is replaced on its own; {get} and {url} are filled, a missing {url} is appended', async () => {
    const { host, link } = await readyPanel(
      {},
      {
        messages: {
          xText: 'Me {get}, you {give}: {url} #referral',
          whatsappText: 'Join me!',
          emailSubject: 'Join me and get {give}',
        },
      },
    )
    expect(shared(host, 'x')).toBe(`Me $10, you $10: ${link.url} #referral`)
    expect(shared(host, 'whatsapp')).toBe(`Join me! ${link.url}`)
    expect(new URL(network(host, 'email').href).searchParams.get('subject')).toBe(
      'Join me and get $10',
    )
    expect(shared(host, 'linkedin')).toBe(
      `I recommend it: sign up with my link and get $10 credit. ${link.url}`,
    )
  })

  it('shareUtm: each channel shares the link tagged with its own utm_source; the ref code stays', async () => {
    const { host, link } = await readyPanel({}, { shareUtm: true })
    for (const name of ['email', 'x', 'whatsapp', 'linkedin']) {
      const sharedUrl = new URL(shared(host, name).split(' ').at(-1) ?? '')
      expect(sharedUrl.searchParams.get('utm_source')).toBe(name)
      expect(sharedUrl.searchParams.get('utm_medium')).toBe('referral')
      expect(sharedUrl.searchParams.get('ref')).toBe(new URL(link.url).searchParams.get('ref'))
    }
    // The link shown and copied is the untagged one.
    expect((mustPart(host, 'link') as HTMLInputElement).value).toBe(link.url)
  })

  it('without shareUtm no channel adds utm parameters', async () => {
    const { host } = await readyPanel()
    for (const name of ['email', 'x', 'whatsapp', 'linkedin'])
      expect(shared(host, name)).not.toContain('utm_')
  })

  it('the share URL stays whole: its own ? and = cannot leak into the outer query', async () => {
    const { host, link } = await readyPanel({ landingUrl: 'https://shop.test/join?utm=a&b=c' })
    expect(link.url).toContain('utm=a&b=c')
    const x = new URL(network(host, 'x').getAttribute('href') ?? '')
    expect(x.searchParams.get('text')).toContain(link.url)
    expect(x.searchParams.has('b')).toBe(false)
  })

  it('network links open in a new tab without giving it the opener, with accessible names', async () => {
    const { host } = await readyPanel()
    for (const name of ['email', 'x', 'whatsapp', 'linkedin']) {
      const anchor = network(host, name)
      expect(anchor.getAttribute('target')).toBe('_blank')
      expect(anchor.getAttribute('rel')).toContain('noopener')
      expect(anchor.getAttribute('aria-label')).toMatch(/^Share via /)
    }
  })

  it('the share text follows the locale and its currency', async () => {
    const campaignId = await createCampaign('sk_test_acme', {
      referrer: { amount: 20, currency: 'EUR' },
      referred: { amount: 15, currency: 'EUR' },
    })
    const { host, link } = await readyPanel({ campaignId, locale: 'de-DE' })
    expect(shared(host, 'x')).toBe(
      `Hol dir 15\u00a0€ Guthaben, wenn du dich über meinen Link anmeldest: ${link.url}`,
    )
  })

  it('a QR code control opens the link as a labelled QR code; Close returns focus to it', async () => {
    const { host, link } = await readyPanel()
    const control = mustPart(host, 'share').querySelector<HTMLButtonElement>(
      'button[data-network="qr"]',
    )
    expect(control?.textContent).toBe('QR code')
    expect(control?.getAttribute('aria-haspopup')).toBe('dialog')
    control?.click()
    await vi.waitFor(() => expect(part(host, 'qr')).not.toBeNull())

    const dialog = mustPart(host, 'qr') as HTMLDialogElement
    expect(dialog.open).toBe(true)
    expect(dialog.getAttribute('aria-labelledby')).toBe('referral-qr-title')
    expect(shadow(host).getElementById('referral-qr-title')?.textContent).toBe(
      'Scan to open your link',
    )
    const code = dialog.querySelector('[data-part="qr-code"]')
    expect(code?.getAttribute('role')).toBe('img')
    expect(code?.getAttribute('aria-label')).toBe(`QR code of ${link.url}`)
    expect(dialog.textContent).toContain(link.url)
    expect(control?.getAttribute('aria-expanded')).toBe('true')

    dialog.querySelector<HTMLButtonElement>('[data-part="qr-close"]')?.click()
    await settle()
    expect(part(host, 'qr')).toBeNull()
    expect(shadow(host).activeElement).toBe(control)
    expect(control?.getAttribute('aria-expanded')).toBe('false')
  })

  it('with shareUtm the QR code holds the link tagged utm_source=qr', async () => {
    const { host, link } = await readyPanel({}, { shareUtm: true })
    mustPart(host, 'share').querySelector<HTMLButtonElement>('[data-network="qr"]')?.click()
    await vi.waitFor(() => expect(part(host, 'qr-code')).not.toBeNull())
    const label = part(host, 'qr-code')?.getAttribute('aria-label') ?? ''
    const shared = new URL(label.replace('QR code of ', ''))
    expect(shared.searchParams.get('utm_source')).toBe('qr')
    expect(shared.searchParams.get('ref')).toBe(new URL(link.url).searchParams.get('ref'))
  })

  it('no native share button without navigator.share', async () => {
    expect('share' in navigator).toBe(false)
    const { host } = await readyPanel()
    expect(mustPart(host, 'share').querySelector('[data-network="native"]')).toBeNull()
  })

  it('a native share button when navigator.share exists, sharing the URL and text', async () => {
    const share = vi.fn((_data: ShareData) => Promise.resolve())
    Object.defineProperty(navigator, 'share', { value: share, configurable: true })
    teardown.push(() => {
      Reflect.deleteProperty(navigator, 'share')
    })
    const { host, link } = await readyPanel()

    const button = mustPart(host, 'share').querySelector<HTMLButtonElement>(
      'button[data-network="native"]',
    )
    expect(button?.textContent).toBe('Share')
    button?.click()
    await settle()
    expect(share).toHaveBeenCalledWith({
      title: subject,
      text: 'Sign up with my link and get $10 credit.',
      url: link.url,
    })
  })

  it('a cancelled native share is quiet', async () => {
    const share = vi.fn((_data: ShareData) => Promise.reject(new Error('AbortError')))
    Object.defineProperty(navigator, 'share', { value: share, configurable: true })
    teardown.push(() => {
      Reflect.deleteProperty(navigator, 'share')
    })
    const { host } = await readyPanel()
    mustPart(host, 'share').querySelector<HTMLButtonElement>('[data-network="native"]')?.click()
    await settle()
    expect(share).toHaveBeenCalledTimes(1)
    expect(text(host, 'status')).toBe('')
  })
})

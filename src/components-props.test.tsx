// @vitest-environment happy-dom
// The Preact components' props (WIDGET.md section 2): the theme, userId, shareUtm, locale,
// messages and outbound props followed by the mounted widget, reloading only what they change.
import { render } from '@testing-library/preact'
import { describe, expect, it } from 'vitest'
import { hostOf, part, props, traffic, useComponentWorld } from '../test/support/component-world.ts'
import { settle } from '../test/support/dom.ts'
import { world } from '../test/support/ui-world.ts'
import { ReferralWidget } from './components.tsx'
import { browserHost } from './core/host.ts'

useComponentWorld()

// --- props -----------------------------------------------------------------------------------

describe('props', () => {
  it('switching the theme prop re-themes the mounted panel', async () => {
    const { container: root, rerender } = render(<ReferralWidget {...props()} theme="light" />)
    await settle()
    const host = hostOf(root)
    expect(part(host, 'root')?.getAttribute('data-theme')).toBe('light')

    rerender(<ReferralWidget {...props()} theme="dark" />)
    await settle()
    expect(part(host, 'root')?.getAttribute('data-theme')).toBe('dark')
    expect(host.shadowRoot?.querySelectorAll('[data-part="root"]')).toHaveLength(1)

    rerender(<ReferralWidget {...props()} theme="auto" />)
    await settle()
    expect(part(host, 'root')?.getAttribute('data-theme')).toBe('auto')
  })

  it('theme switching does not reload the campaign', async () => {
    const { rerender } = render(<ReferralWidget {...props()} theme="light" />)
    await settle()
    rerender(<ReferralWidget {...props()} theme="dark" />)
    await settle()
    expect(traffic().campaigns).toBe(1)
  })

  it('a new userId shows that user’s link', async () => {
    const { container: root, rerender } = render(<ReferralWidget {...props({ userId: 'alice' })} />)
    await settle()
    const host = hostOf(root)
    const alice = (part(host, 'link') as HTMLInputElement | null)?.value

    rerender(<ReferralWidget {...props({ userId: 'bob' })} />)
    await settle()
    const bob = (part(host, 'link') as HTMLInputElement | null)?.value
    expect(bob).toBe(`https://shop.test/?ref=${await world.makeLink('bob')}`)
    expect(alice).toBe(`https://shop.test/?ref=${await world.makeLink('alice')}`)
  })

  it('the shareUtm prop tags each channel’s link, and turning it off untags them', async () => {
    const { container: root, rerender } = render(
      <ReferralWidget {...props({ userId: 'alice' })} shareUtm />,
    )
    await settle()
    const host = hostOf(root)
    const whatsapp = () => {
      const href = part(host, 'share')
        ?.querySelector('a[data-network="whatsapp"]')
        ?.getAttribute('href')
      return new URL(new URL(href ?? '').searchParams.get('text')?.split(' ').at(-1) ?? '')
    }
    expect(whatsapp().searchParams.get('utm_source')).toBe('whatsapp')
    expect(whatsapp().searchParams.get('ref')).toBe(await world.makeLink('alice'))
    rerender(<ReferralWidget {...props({ userId: 'alice' })} />)
    await settle()
    expect(whatsapp().searchParams.has('utm_source')).toBe(false)
  })

  it('the locale and messages props reach the panel', async () => {
    const { container: root } = render(
      <ReferralWidget {...props()} locale="ar" messages={{ signIn: 'سجّل الدخول أولاً' }} />,
    )
    await settle()
    const host = hostOf(root)
    expect(part(host, 'root')?.getAttribute('dir')).toBe('rtl')
    expect(part(host, 'sign-in')?.textContent).toBe('سجّل الدخول أولاً')
  })

  it('the outbound prop: a followed link there carries the referral; an equal list keeps the core, another builds a new one', async () => {
    const code = await world.makeLink('alice')
    const arrived = props({ href: `https://shop.test/?ref=${code}` })
    // The window's own listeners, so that a click on a link reaches the core.
    const page = (outbound: string[]) => ({
      ...arrived,
      host: { ...arrived.host, listen: browserHost.listen },
      outbound,
    })
    const hrefWhenFollowed = (href: string) => {
      const link = document.createElement('a')
      link.href = href
      document.body.append(link)
      let seen: string | null = null
      link.addEventListener('click', () => {
        seen = link.getAttribute('href')
      })
      link.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }))
      link.remove()
      return seen
    }
    const { rerender } = render(<ReferralWidget {...page(['app.other.test'])} />)
    await settle()
    expect(hrefWhenFollowed('https://app.other.test/')).toContain('?ref_handoff=h1.')
    rerender(<ReferralWidget {...page(['app.other.test'])} />)
    await settle()
    expect(traffic().campaigns).toBe(1)
    rerender(<ReferralWidget {...page(['app.example.io'])} />)
    await settle()
    expect(traffic().campaigns).toBe(2)
    expect(hrefWhenFollowed('https://app.other.test/')).toBe('https://app.other.test/')
    expect(hrefWhenFollowed('https://app.example.io/')).toContain('?ref_handoff=h1.')
  })
})

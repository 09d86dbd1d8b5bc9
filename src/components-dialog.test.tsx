// @vitest-environment happy-dom
// The panel's dialog variant (WIDGET.md section 12): the Preact component with `variant="dialog"`
// follows `open` and tells `onClose` when the visitor closed it; the custom element with
// `variant="dialog"` follows its `open` attribute, loses it and fires `close` the same way.
import { render } from '@testing-library/preact'
import { describe, expect, it, vi } from 'vitest'
import { hostOf, props, useComponentWorld } from '../test/support/component-world.ts'
import { settle } from '../test/support/dom.ts'
import { ReferralWidget } from './components.tsx'

useComponentWorld()

const dialogOf = (host: Element) =>
  host.shadowRoot?.querySelector<HTMLDialogElement>('dialog[data-part="dialog"]') ?? null

describe('ReferralWidget variant="dialog"', () => {
  it('opens while open is true, with the link; the close button calls onClose', async () => {
    const onClose = vi.fn()
    const panel = (open: boolean) => (
      <ReferralWidget
        {...props({ userId: 'alice' })}
        variant="dialog"
        open={open}
        onClose={onClose}
      />
    )
    const { container: root, rerender } = render(panel(false))
    await settle()
    const host = hostOf(root)
    expect(dialogOf(host)?.open).toBe(false)

    rerender(panel(true))
    await settle()
    const dialog = dialogOf(host)
    expect(dialog?.open).toBe(true)
    expect(dialog?.querySelector<HTMLInputElement>('[data-part="link"]')?.value).toMatch(/\?ref=/)
    expect(dialog?.getAttribute('aria-labelledby')).toBe('referral-headline')

    dialog?.querySelector<HTMLButtonElement>('[data-part="close"]')?.click()
    await settle()
    expect(onClose).toHaveBeenCalledTimes(1)
    expect(dialog?.open).toBe(false)

    // The app follows onClose, opens it again, then closes it itself: no onClose for that.
    rerender(panel(false))
    await settle()
    rerender(panel(true))
    await settle()
    expect(dialog?.open).toBe(true)
    rerender(panel(false))
    await settle()
    expect(dialog?.open).toBe(false)
    expect(onClose).toHaveBeenCalledTimes(1)
  })

  it('inline (the default) shows no dialog and ignores open', async () => {
    const { container: root } = render(<ReferralWidget {...props({ userId: 'alice' })} open />)
    await settle()
    expect(dialogOf(hostOf(root))).toBeNull()
  })
})

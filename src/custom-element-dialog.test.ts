// @vitest-environment happy-dom
// <referral-widget variant="dialog">: the panel as a modal dialog while the element has `open`
// (not `open="false"`); closed by the visitor, the element loses `open` and fires `close`.
import { describe, expect, it, vi } from 'vitest'
import { settle } from '../test/support/dom.ts'
import { connect, useElementPage } from '../test/support/element-page.ts'
import './custom-element.ts'

useElementPage()

const dialogOf = (host: Element) =>
  host.shadowRoot?.querySelector<HTMLDialogElement>('dialog[data-part="dialog"]') ?? null

describe('<referral-widget variant="dialog">', () => {
  it('follows open; the close button removes it and fires close, once', async () => {
    const widget = connect({ variant: 'dialog', 'user-id': 'alice', open: '' })
    const closed = vi.fn()
    widget.addEventListener('close', closed)
    await settle()
    const dialog = dialogOf(widget)
    expect(dialog?.open).toBe(true)
    expect(dialog?.querySelector<HTMLInputElement>('[data-part="link"]')?.value).toMatch(/\?ref=/)

    dialog?.querySelector<HTMLButtonElement>('[data-part="close"]')?.click()
    await settle()
    expect(dialog?.open).toBe(false)
    expect(widget.hasAttribute('open')).toBe(false)
    expect(closed).toHaveBeenCalledTimes(1)

    widget.setAttribute('open', '')
    await settle()
    expect(dialog?.open).toBe(true)
    widget.setAttribute('open', 'false')
    await settle()
    expect(dialog?.open).toBe(false)
    expect(closed).toHaveBeenCalledTimes(1) // the page closed it: nothing to tell the page
  })

  it('without open, nothing shows; removed from the page, it lets its dialog go', async () => {
    const widget = connect({ variant: 'dialog', 'user-id': 'alice' })
    await settle()
    expect(dialogOf(widget)?.open).toBe(false)
    widget.setAttribute('open', '')
    await settle()
    expect(dialogOf(widget)?.open).toBe(true)
    widget.remove()
    await settle()
    expect(dialogOf(widget)).toBeNull()
  })
})

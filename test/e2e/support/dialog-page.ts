// A page with the tag and no inline panel, where the panel opens as a dialog (the launcher, the
// site's buttons, open(), the prompt), and what a test reads of it: the dialog's state, the focus
// (through shadow roots) and the open/close events heard through the stub.
import type { Page } from 'playwright-core'
import { expect } from 'vitest'
import { FAST, type HostOrigin, type ServiceOrigin } from './harness.ts'
import { STUB, widgetPage } from './widget-page.ts'

export const LAUNCHER = '[data-part="launcher"]'
export const DIALOG = 'dialog[data-part="dialog"]'

/** The page's markup: the stub (recording open and close in window.heard), `extra`, the tag. */
export const dialogPage = (
  origins: { host: HostOrigin; service: ServiceOrigin },
  path: string,
  attributes: Record<string, string>,
  extra = '',
) =>
  origins.host.page(path, {
    html: widgetPage(origins.service, {
      panel: false,
      attributes,
      before: `<script>${STUB};Referral('on','open',function(e){(window.heard=window.heard||[]).push('open:'+e.prompted)});Referral('on','close',function(){(window.heard=window.heard||[]).push('close')})</script>${extra}`,
    }),
  })

/**
 * Whether the dialog is open (modal), what has the focus (its data-part, share network, id or tag
 * name), the link it shows.
 */
export const dialogState = (target: Page) =>
  target.evaluate((selector) => {
    const dialog = document
      .querySelector('[data-referral-dialog]')
      ?.shadowRoot?.querySelector<HTMLDialogElement>(selector)
    let active = document.activeElement
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement
    return {
      open: dialog?.open === true,
      modal: dialog?.matches(':modal') === true,
      focusInside: !!dialog && !!active && dialog.contains(active),
      focused:
        active?.getAttribute('data-part') ||
        active?.getAttribute('data-network') ||
        active?.id ||
        active?.tagName ||
        null,
      link: dialog?.querySelector<HTMLInputElement>('[data-part="link"]')?.value ?? null,
      dialogs: document.querySelectorAll('[data-referral-dialog]').length,
    }
  }, DIALOG)

/** Waits until the dialog is open and shows the referrer's link. */
export const opened = (target: Page) =>
  expect
    .poll(() => dialogState(target).then((state) => state.link !== null && state.open), FAST)
    .toBe(true)

/** The open and close events heard so far. */
export const heard = (target: Page) =>
  target.evaluate(() => (window as unknown as { heard?: string[] }).heard ?? [])

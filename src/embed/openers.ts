// The site's own buttons: any element marked `data-referral-open` opens the panel, through one
// listener on the window (so elements added later are buttons too). A click opens it; Enter or
// Space on an element that is no native control (a `div` with role="button") does too, as they
// would on a button. Pointer over, focus or touch on one is intent: the panel's files start.

export const OPENER = '[data-referral-open]'

/** The tag's attributes the launcher file reads: the launcher's corner, the prompt's moment. */
export const LAUNCHER_ATTRIBUTES = { launcher: 'data-launcher', prompt: 'data-prompt' } as const

/** The events that may activate an opener, and those that tell of intent. */
export const OPENER_EVENTS = ['click', 'keydown']
export const INTENT_EVENTS = ['pointerover', 'focusin', 'touchstart']

/** The element marked `data-referral-open` at an event's target, if any. */
export function openerAt(event: Event): Element | undefined {
  try {
    return (event.target as Element | null)?.closest?.(OPENER) ?? undefined
  } catch {
    // A target of another kind (a text node, a page's odd object): no opener.
  }
}

/** The opener this click or key press activates, if any. */
export function openerOf(event: Event): Element | undefined {
  const opener = openerAt(event)
  if (!opener || event.type === 'click') return opener
  const key = (event as KeyboardEvent).key
  // A button, link or summary turns Enter (and Space) into a click of its own.
  if ((key === 'Enter' || key === ' ') && !/^(a|button|input|summary)$/.test(opener.localName))
    return opener
}

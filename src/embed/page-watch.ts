// How the script tag's files see a panel or banner come to a page that changes without a reload
// (Turbo, htmx, a router): each batch of changes their MutationObserver reports is judged by the
// nodes it added, never by a query of the whole document. A busy page (a ticker, a chat, a table
// redrawn every frame) pays a glance at each element it adds; a panel or banner arriving is what
// costs a query. The loader and the UI files judge by this one module, each with its own copy
// (the loader does not publish it, and inlines its own: loader-runtime.ts).

/** The elements a page marks for the widget: a panel, a banner. */
export const WIDGET_ELEMENTS = '[data-referral-widget],[data-referral-banner]'

/**
 * What the launcher file serves: the site's own buttons (`data-referral-open`), a tag asking for
 * a launcher or for the prompt after sign-up (the file reads which: `data-launcher="none"` is none).
 */
export const DOORS = '[data-referral-open],[data-launcher],[data-prompt]'

/** Whether a batch added an element matching `selector`, or an element holding one. */
export const adds = (records: readonly MutationRecord[], selector: string): boolean => {
  for (const { addedNodes } of records)
    for (const node of addedNodes)
      if (
        node.nodeType === 1 &&
        ((node as Element).matches(selector) || !!(node as Element).querySelector(selector))
      )
        return true
  return false
}

/** Whether a batch added a panel or banner, or an element holding one. */
export const addsWidget = (records: readonly MutationRecord[]): boolean =>
  adds(records, WIDGET_ELEMENTS)

/** What each of the widget's observers watches: every node added or removed, anywhere. */
export const PAGE_CHANGES: MutationObserverInit = { childList: true, subtree: true }

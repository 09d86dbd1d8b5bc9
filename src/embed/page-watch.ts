// How the script tag's files see a panel or banner come to a page that changes without a reload
// (Turbo, htmx, a router): each batch of changes their MutationObserver reports is judged by the
// nodes it added, never by a query of the whole document. A busy page (a ticker, a chat, a table
// redrawn every frame) pays a glance at each element it adds; a panel or banner arriving is what
// costs a query. The loader and the UI files share this one judge (loader-runtime.ts).

/** The elements a page marks for the widget: a panel, a banner. */
const WIDGET_ELEMENTS = '[data-referral-widget],[data-referral-banner]'

/** Whether a batch added a panel or banner, or an element holding one. */
export const addsWidget = (records: readonly MutationRecord[]): boolean => {
  for (const { addedNodes } of records)
    for (const node of addedNodes)
      if (
        node.nodeType === 1 &&
        ((node as Element).matches(WIDGET_ELEMENTS) ||
          !!(node as Element).querySelector(WIDGET_ELEMENTS))
      )
        return true
  return false
}

/** What each of the widget's observers watches: every node added or removed, anywhere. */
export const PAGE_CHANGES: MutationObserverInit = { childList: true, subtree: true }

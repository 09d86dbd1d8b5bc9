// How the widget's MutationObservers judge a page that changes without a reload (Turbo, htmx, a
// router, a ticker): each batch of changes is judged by the nodes it added, never by a query of the
// whole document. A busy page (a chat, a table redrawn every frame) pays a glance at each element
// it adds; an element the widget serves arriving is what costs a query. The script tag's loader
// and UI files (src/embed/page-watch.ts) and the checkout links (src/core/checkout/links.ts) judge
// by this one module.

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

/** What each of the widget's observers watches: every node added or removed, anywhere. */
export const PAGE_CHANGES: MutationObserverInit = { childList: true, subtree: true }

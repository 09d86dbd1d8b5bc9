// How the script tag's files see a panel, a banner or the site's buttons come to a page that
// changes without a reload: by the nodes each batch added (src/shared/page-changes.ts). The loader
// and the UI files judge by this one module, each with its own copy (the loader does not publish
// it, and inlines its own: loader-runtime.ts).
import { adds } from '../shared/page-changes.ts'

/** The elements a page marks for the widget: a panel, a banner. */
export const WIDGET_ELEMENTS = '[data-referral-widget],[data-referral-banner]'

/**
 * What the launcher file serves: the site's own buttons (`data-referral-open`), a tag asking for
 * a launcher or for the prompt after sign-up (the file reads which: `data-launcher="none"` is none).
 */
export const DOORS = '[data-referral-open],[data-launcher],[data-prompt]'

/** Whether a batch added a panel or banner, or an element holding one. */
export const addsWidget = (records: readonly MutationRecord[]): boolean =>
  adds(records, WIDGET_ELEMENTS)

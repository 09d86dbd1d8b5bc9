// `referral-widget/custom-element/preact`: defines <referral-widget> and declares it, with its
// attributes, to Preact's JSX, so `<referral-widget public-key="pk_…" />` type-checks in TSX.
import type * as preact from 'preact'
import type { ReferralWidgetAttributes, ReferralWidgetElement } from './custom-element.ts'

export { ReferralWidgetElement } from './custom-element.ts'

declare module 'preact' {
  namespace JSX {
    interface IntrinsicElements {
      'referral-widget': preact.HTMLAttributes<ReferralWidgetElement> & ReferralWidgetAttributes
    }
  }
}

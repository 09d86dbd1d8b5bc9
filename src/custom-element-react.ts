// `referral-widget/custom-element/react`: defines <referral-widget> and declares it, with its
// attributes, to React's JSX, so `<referral-widget public-key="pk_…" />` type-checks in TSX.
import type * as React from 'react'
import type { ReferralWidgetAttributes, ReferralWidgetElement } from './custom-element.ts'

export { ReferralWidgetElement } from './custom-element.ts'

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'referral-widget': React.DetailedHTMLProps<
        React.HTMLAttributes<ReferralWidgetElement>,
        ReferralWidgetElement
      > &
        ReferralWidgetAttributes
    }
  }
}

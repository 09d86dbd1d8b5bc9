/** @jsxImportSource react */
// <referral-widget> in strict React TSX (this file compiles against React's JSX): known once
// referral-widget/custom-element/react is imported, with its attributes checked.
import { expectTypeOf, test } from 'vitest'
import '../../src/custom-element-react.ts'

test('<referral-widget> type-checks in React TSX, attributes included', () => {
  const element = (
    <referral-widget
      public-key="pk_test_acme"
      api-base="https://api.example.test"
      campaign-id="camp_1"
      user-id="user_123"
      user-token="v1.payload.signature"
      share-utm="true"
      theme="auto"
      locale="fr"
      variant="panel"
      ref-param="ref"
      landing-url="https://shop.example/"
      clean-url="true"
      consent="required"
      honor-gpc="true"
      messages={{ copy: 'Copier' }}
      className="card"
    />
  )
  expectTypeOf(element).not.toBeAny()
  // @ts-expect-error theme is light, dark or auto
  ;<referral-widget theme="purple" />
  // @ts-expect-error consent is "required" or left out
  ;<referral-widget consent="yes" />
})

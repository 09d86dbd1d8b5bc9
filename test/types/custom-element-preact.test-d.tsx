// <referral-widget> in strict Preact TSX: known once referral-widget/custom-element/preact is
// imported, with its attributes checked, and typed by document.createElement.
import { expectTypeOf, test } from 'vitest'
import '../../src/custom-element-preact.ts'
import type { ReferralWidgetElement } from '../../src/custom-element.ts'

test('<referral-widget> type-checks in Preact TSX, attributes included', () => {
  const element = (
    <referral-widget
      public-key="pk_test_acme"
      api-base="https://api.example.test"
      campaign-id="camp_1"
      user-id="user_123"
      user-token="v1.payload.signature"
      share-utm
      theme="dark"
      locale="de"
      variant="banner"
      ref-param="ref,via"
      landing-url="https://shop.example/"
      clean-url="false"
      consent="required"
      honor-gpc
      messages={{ copy: 'Kopieren' }}
      class="card"
    />
  )
  expectTypeOf(element).not.toBeAny()
  // @ts-expect-error theme is light, dark or auto
  ;<referral-widget theme="purple" />
  // @ts-expect-error variant is panel or banner
  ;<referral-widget variant="sidebar" />
  // @ts-expect-error share-utm is true or false
  ;<referral-widget share-utm="yes" />
  // @ts-expect-error messages holds known messages only
  ;<referral-widget messages={{ nope: 'x' }} />
})

test('document.createElement("referral-widget") is a ReferralWidgetElement', () => {
  const created = document.createElement('referral-widget')
  expectTypeOf(created).toEqualTypeOf<ReferralWidgetElement>()
  expectTypeOf(
    document.querySelector('referral-widget'),
  ).toEqualTypeOf<ReferralWidgetElement | null>()
  expectTypeOf<HTMLElementTagNameMap['referral-widget']['messages']>().not.toBeAny()
})

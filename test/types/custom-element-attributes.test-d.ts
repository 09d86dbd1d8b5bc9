// Every attribute <referral-widget> observes is typed for JSX, with the value it takes, and every
// typed one is observed: the names come from the element's own lists (the options' table in
// src/core/options.ts and the UI's two), so none can be documented and observed yet untyped.
import { expectTypeOf, test } from 'vitest'
import type { OPTION_ATTRIBUTES } from '../../src/core/options.ts'
import type { Theme } from '../../src/core/types.ts'
import type {
  ReferralWidgetAttributeName,
  ReferralWidgetAttributes,
  ReferralWidgetElement,
} from '../../src/custom-element.ts'

type Observed = (typeof ReferralWidgetElement.observedAttributes)[number]
type Flag = 'true' | 'false' | boolean | undefined

test('the observed attributes are exactly the typed ones (besides the messages property)', () => {
  expectTypeOf<Observed>().toEqualTypeOf<ReferralWidgetAttributeName>()
  expectTypeOf<Exclude<keyof ReferralWidgetAttributes, 'messages'>>().toEqualTypeOf<Observed>()
})

test('each option in the options table has its element attribute typed', () => {
  type OptionAttribute = (typeof OPTION_ATTRIBUTES)[keyof typeof OPTION_ATTRIBUTES]['element']
  expectTypeOf<OptionAttribute>().toExtend<keyof ReferralWidgetAttributes>()
  expectTypeOf<ReferralWidgetAttributes['user-token']>().toEqualTypeOf<string | undefined>()
  expectTypeOf<ReferralWidgetAttributes['cookie-domain']>().toEqualTypeOf<string | undefined>()
  expectTypeOf<ReferralWidgetAttributes['outbound']>().toEqualTypeOf<string | undefined>()
})

test('attributes with a closed set of values take only those', () => {
  expectTypeOf<ReferralWidgetAttributes['share-utm']>().toEqualTypeOf<Flag>()
  expectTypeOf<ReferralWidgetAttributes['clean-url']>().toEqualTypeOf<Flag>()
  expectTypeOf<ReferralWidgetAttributes['honor-gpc']>().toEqualTypeOf<Flag>()
  expectTypeOf<ReferralWidgetAttributes['theme']>().toEqualTypeOf<Theme | undefined>()
  expectTypeOf<ReferralWidgetAttributes['variant']>().toEqualTypeOf<
    'panel' | 'banner' | 'dialog' | undefined
  >()
  expectTypeOf<ReferralWidgetAttributes['open']>().toEqualTypeOf<Flag>()
  expectTypeOf<ReferralWidgetAttributes['consent']>().toEqualTypeOf<'required' | undefined>()
})

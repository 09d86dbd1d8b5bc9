// The referrer's summary as the widget reads it (a service extension, docs/CONTRACT.md): only
// the later-loaded part of the script tag asks for it, so its parser is not in the tracking part.
// test/wire-parity.test.ts holds it to the service's schema like the others.
import { array, number, object, oneOf, type Parser, string } from '../shared/parse.ts'
import { CURRENCY_PATTERN, MAX_SUMMARY_RECENT } from './referrer-wire.ts'
import {
  CAMPAIGN_ID_PATTERN,
  CODE_PATTERN,
  ISO_TIMESTAMP_PATTERN,
  type LinkSummary,
} from './wire.ts'

const timestamp = string(ISO_TIMESTAMP_PATTERN)

const count: Parser<number> = (value) =>
  number(Number.isSafeInteger(value) && (value as number) >= 0 ? value : Number.NaN)

export const parseLinkSummary: Parser<LinkSummary> = object({
  code: string(CODE_PATTERN),
  campaignId: string(CAMPAIGN_ID_PATTERN),
  clicks: count,
  signups: count,
  conversions: count,
  // Extension (purchases): absent from a service that does not take purchases. (Not `optional`:
  // this parser reads the tracking part's parse functions, and that one is not among them.)
  buyers: (value) => (value === undefined ? undefined : count(value)),
  rewardsEarned: object({
    amount: (value) => number(typeof value === 'number' && value >= 0 ? value : Number.NaN),
    currency: string(CURRENCY_PATTERN),
  }),
  // More than the contract's 10 is refused as a whole, as the service's schema does.
  recent: (value) =>
    array(object({ at: timestamp, status: oneOf(['clicked', 'signed_up', 'converted']) }))(
      Array.isArray(value) && value.length <= MAX_SUMMARY_RECENT ? value : null,
    ),
})

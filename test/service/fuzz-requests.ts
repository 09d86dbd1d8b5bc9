// The requests the service's property tests send: bodies near the contract's shapes (campaigns,
// patches, links, events, beacons) or of none, and whole requests, either wild (any method,
// path, key, media type and body) or aimed at the interface's own routes.

import fc from 'fast-check'
import {
  authorization,
  contentType,
  DEMO_KEY_LIST,
  extraHeaders,
  method,
  path,
  query,
} from './fuzz-request-head.ts'
import { ACME, fuzzCampaign, GLOBEX } from './fuzz-world.ts'
import { DEMO_KEYS } from './helpers.ts'

/** Values that pass validation, mixed with values that just miss it. */
const nearly = <T, U>(valid: fc.Arbitrary<T>, invalid: fc.Arbitrary<U>) =>
  fc.oneof({ weight: 19, arbitrary: valid }, { weight: 1, arbitrary: invalid })

const eventLike = fc
  .tuple(
    fc.record(
      {
        id: nearly(
          fc.constantFrom('evt_fuzz_0001', 'evt_fuzz_0002', 'evt_fuzz_0003'),
          fc.constantFrom('short', '', 7),
        ),
        type: nearly(
          fc.constantFrom('click', 'signup', 'purchase', 'refund'),
          fc.constantFrom('view', 1),
        ),
        code: nearly(
          fc.constantFrom('{code}', '{bought}'),
          fc.constantFrom('ZZZZZZZZZZ', '', null),
        ),
        visitorId: nearly(
          fc.constantFrom('visitor_fuzz1', 'visitor_fuzz2'),
          fc.constantFrom('short', ''),
        ),
        userId: nearly(fc.constantFrom('user_owner', 'user_fuzz'), fc.constantFrom('', 'ünïcode')),
        occurredAt: nearly(fc.constant('2026-01-01T00:00:00.000Z'), fc.constant('yesterday')),
        // Extension: purchases.
        orderId: nearly(fc.constantFrom('order_1', 'order_2'), fc.constantFrom('', 'a b', 7)),
        amount: nearly(fc.constantFrom(19.99, 1), fc.constantFrom(0, -5, '10', null)),
        currency: nearly(fc.constant('EUR'), fc.constantFrom('eur', 'EURO')),
      },
      { requiredKeys: ['id', 'type', 'visitorId'] },
    ),
    fc.nat(9),
  )
  .map(([event, dice]) => {
    // Extension: a refund names no visitor, code or user; most of them come in its own shape.
    const { visitorId: _visitor, code: _code, userId: _user, ...refund } = event
    const shaped = event.type === 'refund' && dice > 2 ? refund : event
    return dice === 0 ? { ...shaped, extra: true } : shaped
  })

const reward = fc.record(
  {
    type: nearly(fc.constant('credit'), fc.constantFrom('cash', '', null)),
    amount: nearly(
      fc.integer({ min: 0, max: 1_000_000 }),
      fc.oneof(fc.double(), fc.integer(), fc.string({ maxLength: 4 })),
    ),
    currency: nearly(fc.constantFrom('USD', 'EUR'), fc.constantFrom('usd', 'EURO', 1)),
  },
  { requiredKeys: ['type', 'amount'] },
)
/** Extension: the friend's reward may carry a promotion code; `null` is none (a patch removes it). */
const referredReward = fc
  .tuple(
    reward,
    fc.option(
      nearly(fc.constantFrom('FRIEND10', 'x', null), fc.constantFrom('', 'a b', 'x'.repeat(65), 7)),
      { nil: undefined },
    ),
  )
  .map(([fields, promotionCode]) =>
    promotionCode === undefined ? fields : { ...fields, promotionCode },
  )
const limits = fc.record(
  {
    maxReferralsPerUser: nearly(
      fc.oneof(fc.integer({ min: 1, max: 100 }), fc.constant(null)),
      fc.oneof(fc.integer(), fc.double()),
    ),
    maxReferralsPerDay: nearly(fc.integer({ min: 1, max: 100 }), fc.constantFrom(0, -1, 1.5, '1')),
  },
  { requiredKeys: [] },
)
const campaignFields = {
  name: nearly(
    fc.string({ minLength: 1, maxLength: 20 }),
    fc.oneof(fc.string({ maxLength: 210 }), fc.jsonValue({ maxDepth: 1 })),
  ),
  description: nearly(fc.string({ maxLength: 20 }), fc.constant(7)),
  rewardTrigger: nearly(fc.constant('signup'), fc.constant('purchase')),
  referrerReward: reward,
  referredReward,
  limits,
  attributionWindow: nearly(
    fc.constantFrom('7d', '365d'),
    fc.constantFrom('366d', '0d', '1w', '99999999999999999999d'),
  ),
}

// Bodies near the contract's shapes, so that validation is reached and sometimes passed.

/** A complete campaign with a few fields replaced, or none. */
const createBody = fc
  .record(campaignFields, { requiredKeys: [] })
  .map((fields) => ({ ...fuzzCampaign(), ...fields }))
const { rewardTrigger: _notUpdatable, ...updatableFields } = campaignFields
/** Any subset of the fields, sometimes with one that cannot change or does not exist. */
const patchBody = fc
  .tuple(
    fc.record(
      {
        ...updatableFields,
        status: nearly(fc.constantFrom('active', 'paused', 'archived'), fc.constant('deleted')),
      },
      { requiredKeys: [] },
    ),
    nearly(
      fc.constant({}),
      fc.constantFrom(
        { id: 'camp_x' },
        { rewardTrigger: 'signup' },
        { stats: { totalClicks: 1e9 } },
        { unknown: 1 },
      ),
    ),
  )
  .map(([fields, extra]) => ({ ...fields, ...extra }))
const linkBody = fc.record(
  {
    campaignId: fc.constantFrom(
      '{active}',
      '{paused}',
      '{archived}',
      '{live}',
      '{foreign}',
      'camp_x',
    ),
    referrerId: nearly(
      fc.stringMatching(/^[A-Za-z0-9_.:@-]{1,20}$/),
      fc.constantFrom('', 'x'.repeat(129), 'a b', 'ünïcode'),
    ),
    // Extension: the asking browser, whose own clicks then count nothing.
    visitorId: nearly(
      fc.constantFrom('visitor_fuzz1', 'visitor_fuzz2'),
      fc.constantFrom('short', '', 7),
    ),
  },
  { requiredKeys: ['campaignId', 'referrerId'] },
)
const events = nearly(
  fc.array(eventLike, { minLength: 1, maxLength: 4 }),
  fc.jsonValue({ maxDepth: 1 }),
)
const eventsBody = fc.record({ events })
/** The beacon form: the key in the body, mostly a public one. */
const beaconBody = fc.record(
  {
    key: nearly(
      fc.constantFrom(ACME.pkTest, ACME.pkLive, GLOBEX.pkTest),
      fc.constantFrom(ACME.skTest, DEMO_KEYS.acmeRolled, 'pk_test_nobody', 42),
    ),
    events,
  },
  { requiredKeys: ['events'] },
)
const pollutingBody = fc.constantFrom(
  '{"__proto__": {"status": "archived"}, "name": "x"}',
  '{"constructor": {"prototype": {"polluted": true}}}',
  '{"referrerReward": {"__proto__": {"amount": 1}}}',
  '{"events": [{"__proto__": {"type": "click"}}]}',
)
const json = (arbitrary: fc.Arbitrary<unknown>) => arbitrary.map((value) => JSON.stringify(value))

const shapedBody = fc.oneof(
  json(createBody),
  json(patchBody),
  json(linkBody),
  json(eventsBody),
  json(beaconBody),
  pollutingBody,
)

const body = fc.oneof(
  { weight: 1, arbitrary: fc.constant(undefined) },
  {
    weight: 6,
    arbitrary: shapedBody,
  },
  { weight: 2, arbitrary: fc.jsonValue().map((value) => JSON.stringify(value)) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }) },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 64 * 1024 - 16, max: 80 * 1024 })
      .map((size) => JSON.stringify({ name: 'x'.repeat(size) })),
  },
)

/** Anything: any method, path, key, media type and body. */
const wildRequest = fc.record({
  method,
  path,
  query,
  authorization,
  contentType,
  extraHeaders,
  body,
})

/** The interface's own routes with mostly working keys and bodies, to get past the front door. */
const ROUTES: ReadonlyArray<readonly [string, string, fc.Arbitrary<string | undefined>]> = [
  ['GET', '/v1/campaigns', fc.constant(undefined)],
  ['POST', '/v1/campaigns', json(createBody)],
  ['GET', '/v1/campaigns/{active}', fc.constant(undefined)],
  ['GET', '/v1/campaigns/{paused}', fc.constant(undefined)],
  ['PATCH', '/v1/campaigns/{active}', json(patchBody)],
  ['PATCH', '/v1/campaigns/{paused}', json(patchBody)],
  ['PATCH', '/v1/campaigns/{archived}', json(patchBody)],
  ['PATCH', '/v1/campaigns/{live}', json(patchBody)],
  ['PATCH', '/v1/campaigns/{foreign}', json(patchBody)],
  ['POST', '/v1/links', json(linkBody)],
  ['GET', '/v1/links/{code}', fc.constant(undefined)],
  ['GET', '/v1/links/{code}/summary', fc.constant(undefined)],
  ['POST', '/v1/events', json(eventsBody)],
  ['POST', '/v1/events (beacon)', json(beaconBody)],
]
/** Keys of the worlds the placeholders point into: secret ones where only they can act. */
const routeKey = (method: string, route: string) =>
  route.startsWith('/v1/campaigns') && method !== 'GET'
    ? fc.constantFrom(ACME.skTest, ACME.skLive)
    : fc.constantFrom(ACME.skTest, ACME.pkTest)
const truncated = (text: fc.Arbitrary<string | undefined>) =>
  text.chain((whole) =>
    whole === undefined
      ? fc.constant(undefined)
      : fc.nat(whole.length).map((end) => whole.slice(0, end)),
  )
const routedRequest = fc.constantFrom(...ROUTES).chain(([method, route, routeBody]) => {
  const beacon = route.endsWith('(beacon)')
  return fc.record({
    method: fc.constant(method),
    path: fc.constant(route.replace(' (beacon)', '')),
    query: fc.oneof({ weight: 3, arbitrary: fc.constant('') }, { weight: 1, arbitrary: query }),
    authorization: beacon
      ? fc.constant(undefined)
      : fc.oneof(
          { weight: 4, arbitrary: fc.constantFrom(...DEMO_KEY_LIST).map((key) => `Bearer ${key}`) },
          { weight: 4, arbitrary: routeKey(method, route).map((key) => `Bearer ${key}`) },
          { weight: 1, arbitrary: authorization },
        ),
    contentType: fc.oneof(
      { weight: 8, arbitrary: fc.constant(beacon ? 'text/plain' : 'application/json') },
      { weight: 1, arbitrary: contentType },
    ),
    extraHeaders: fc.constant({}),
    body: fc.oneof(
      { weight: 6, arbitrary: routeBody },
      // Cut short, as by a dropped connection.
      { weight: 1, arbitrary: truncated(routeBody) },
      { weight: 1, arbitrary: body },
    ),
  })
})

export const anyRequest = fc.oneof(
  { weight: 3, arbitrary: routedRequest },
  { weight: 2, arbitrary: wildRequest },
)
export type FuzzRequest = typeof anyRequest extends fc.Arbitrary<infer T> ? T : never

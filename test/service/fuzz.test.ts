// Property-based tests of the reference service (fast-check): whatever arrives, the answer is
// the contract's (never a 500, never a stack trace, errors in the error body); a refused
// request changes nothing; the status table holds for any sequence of moves (events counting
// exactly once: events.fuzz.test.ts). FUZZ_RUNS sets the number of runs (test/support/fuzz.ts).

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Scope } from '../../demo/service/keys.ts'
import type { Campaign, EventResult, Link } from '../../demo/service/schemas.ts'
import { createMemoryStore, type Store } from '../../demo/service/store.ts'
import { fuzzOptions, fuzzTimeout } from '../support/fuzz.ts'
import { campaignBody, DEMO_CAMPAIGNS, DEMO_KEYS, errorOf, LEAKS, setup } from './helpers.ts'

const ACME = DEMO_KEYS.acme
const GLOBEX = DEMO_KEYS.globex
const PEER = '198.51.100.7'
/** Rate limits out of the way: the properties are about answers, not about 429s. */
const NO_LIMITS = { pkRateLimit: 1e9, skRateLimit: 1e9, trustedProxies: [PEER] } as const

/** CONTRACT.md "Errors": the type and the codes of each status. */
const ERRORS: Record<number, { type: string; codes: readonly string[] }> = {
  400: {
    type: 'invalid_request_error',
    codes: [
      'invalid_json',
      'parameter_missing',
      'parameter_invalid',
      'parameter_unknown',
      'parameter_not_updatable',
    ],
  },
  401: {
    type: 'authentication_error',
    codes: [
      'missing_api_key',
      'invalid_api_key',
      'expired_api_key',
      // Extension: user tokens.
      'user_token_required',
      'user_token_invalid',
      'user_token_expired',
    ],
  },
  403: { type: 'permission_error', codes: ['secret_key_required', 'user_token_mismatch'] },
  404: { type: 'not_found_error', codes: ['resource_missing', 'route_missing'] },
  405: { type: 'invalid_request_error', codes: ['method_not_allowed'] },
  409: {
    type: 'invalid_request_error',
    codes: ['invalid_state_transition', 'campaign_not_active'],
  },
  413: { type: 'invalid_request_error', codes: ['body_too_large'] },
  415: { type: 'invalid_request_error', codes: ['unsupported_media_type'] },
}

type World = Awaited<ReturnType<typeof makeWorld>>

/** A store that notes every write with its scope, to see what a request changed and where. */
function journaledStore() {
  const base = createMemoryStore()
  const writes: string[] = []
  const note = (op: string, scope: Scope) => writes.push(`${op} ${scope.org}/${scope.mode}`)
  const store: Store = {
    ...base,
    insertCampaign: (scope, campaign) => {
      note('insertCampaign', scope)
      base.insertCampaign(scope, campaign)
    },
    saveCampaign: (scope, campaign) => {
      note('saveCampaign', scope)
      base.saveCampaign(scope, campaign)
    },
    insertLink: (scope, link) => {
      note('insertLink', scope)
      base.insertLink(scope, link)
    },
    markAccepted: (scope, eventId) => {
      note('markAccepted', scope)
      base.markAccepted(scope, eventId)
    },
    addClick: (scope, click) => {
      note('addClick', scope)
      base.addClick(scope, click)
    },
    addConversion: (scope, conversion) => {
      note('addConversion', scope)
      base.addConversion(scope, conversion)
    },
    addSignup: (scope, signup) => {
      note('addSignup', scope)
      base.addSignup(scope, signup)
    },
    markOrder: (scope, orderId) => {
      note('markOrder', scope)
      base.markOrder(scope, orderId)
    },
    addReferral: (scope, referral) => {
      note('addReferral', scope)
      base.addReferral(scope, referral)
    },
    addFirstPurchase: (scope, purchase) => {
      note('addFirstPurchase', scope)
      base.addFirstPurchase(scope, purchase)
    },
  }
  return { store, writes }
}

const fuzzCampaign = (fields: Record<string, unknown> = {}) => ({
  ...campaignBody('Fuzz campaign'),
  ...fields,
})

/** A fresh service with data in place for generated requests to hit: ids fill placeholders. */
async function makeWorld() {
  const journal = journaledStore()
  const ctx = setup({ ...NO_LIMITS, store: journal.store })
  const { call } = ctx
  const created = async (key: string, fields: Record<string, unknown> = {}) => {
    const answer = await call<Campaign>('POST', '/v1/campaigns', {
      key,
      body: fuzzCampaign(fields),
    })
    expect(answer.status).toBe(201)
    return answer.body.id
  }
  const withStatus = async (status: 'paused' | 'archived') => {
    const id = await created(ACME.skTest, { name: status })
    const patched = await call('PATCH', `/v1/campaigns/${id}`, {
      key: ACME.skTest,
      body: { status },
    })
    expect(patched.status).toBe(200)
    return id
  }
  const paused = await withStatus('paused')
  const archived = await withStatus('archived')
  const live = await created(ACME.skLive, { name: 'Live' })
  const link = await call<Link>('POST', '/v1/links', {
    key: ACME.pkTest,
    body: { campaignId: DEMO_CAMPAIGNS.acme, referrerId: 'user_owner' },
  })
  expect(link.status).toBe(201)
  // Extension: a purchase campaign, so that purchases have something to convert in.
  const bought = await created(ACME.skTest, { name: 'Purchases', rewardTrigger: 'purchase' })
  const boughtLink = await call<Link>('POST', '/v1/links', {
    key: ACME.pkTest,
    body: { campaignId: bought, referrerId: 'user_owner' },
  })
  expect(boughtLink.status).toBe(201)
  const placeholders: Record<string, string> = {
    '{bought}': boughtLink.body.code,
    '{active}': DEMO_CAMPAIGNS.acme,
    '{paused}': paused,
    '{archived}': archived,
    '{live}': live,
    '{foreign}': DEMO_CAMPAIGNS.globex,
    '{code}': link.body.code,
  }
  journal.writes.length = 0
  return { ...ctx, writes: journal.writes, placeholders, code: link.body.code }
}

const fill = (text: string, world: World) =>
  text.replace(
    /\{(active|paused|archived|live|foreign|code|bought)\}/g,
    (match) => world.placeholders[match] ?? match,
  )

// ---------------------------------------------------------------------------------------------
// Requests of any shape

const PLACEHOLDERS = [
  '{active}',
  '{paused}',
  '{archived}',
  '{live}',
  '{foreign}',
  '{code}',
] as const
const DEMO_KEY_LIST = [...Object.values(ACME), ...Object.values(GLOBEX), DEMO_KEYS.acmeRolled]

/** Header values: anything a Headers object accepts (Latin-1, no CR, LF or NUL). */
const latin1 = (maxLength: number) =>
  fc.string({
    unit: fc.integer({ min: 0x20, max: 0xff }).map((c) => String.fromCharCode(c)),
    maxLength,
  })

const segment = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('v1', 'campaigns', 'links', 'events', ...PLACEHOLDERS) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '',
      '.',
      '..',
      '%2e%2e',
      '%2F',
      '%00',
      '%',
      '%E0%A4%A',
      '%ZZ',
      '%F0%9F%98%80',
      ';',
      ':id',
      '*',
      'CAMPAIGNS',
      'v1%2Fcampaigns',
      '\\..\\',
      '__proto__',
      'constructor',
      'camp_AAAAAAAAAAAAAAAAAAAA',
    ),
  },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 8 }) },
  { weight: 1, arbitrary: fc.webSegment() },
)

const path = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '/v1/campaigns',
      '/v1/campaigns/{active}',
      '/v1/campaigns/{paused}',
      '/v1/campaigns/{live}',
      '/v1/campaigns/{foreign}',
      '/v1/links',
      '/v1/links/{code}',
      '/v1/links/{code}/summary',
      '/v1/events',
      '/v1/events/',
      '/v1',
      '/',
      '/demo-api/reset',
    ),
  },
  { weight: 2, arbitrary: fc.array(segment, { maxLength: 3 }).map((s) => `/v1/${s.join('/')}`) },
  { weight: 1, arbitrary: fc.array(segment, { maxLength: 5 }).map((s) => `/${s.join('/')}`) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.constantFrom('/v1/campaigns/', '/v1/links/', '/v1/'),
        fc.integer({ min: 200, max: 20_000 }),
      )
      .map(([prefix, length]) => `${prefix}${'a%2F'.repeat(length / 4)}`),
  },
)

const queryValue = fc.oneof(
  fc.constantFrom('active', 'paused', 'archived', '', '0', '1', '100', '101', '-1', '1e2', '1.5'),
  fc.constantFrom('{active}', '{paused}', '%', '%E0', '+', '&', '='),
  fc.string({ maxLength: 10 }),
)
const query = fc.oneof(
  fc.constant(''),
  fc.webQueryParameters().map((q) => `?${q}`),
  fc
    .array(
      fc.tuple(
        fc.oneof(
          fc.constantFrom(
            'status',
            'limit',
            'startingAfter',
            '__proto__',
            'constructor',
            'limit[]',
          ),
          fc.string({ maxLength: 6 }),
        ),
        queryValue,
        fc.boolean(),
      ),
      { maxLength: 4 },
    )
    .map(
      (pairs) =>
        `?${pairs
          .map(([name, value, raw]) =>
            raw ? `${name}=${value}` : `${encodeURIComponent(name)}=${encodeURIComponent(value)}`,
          )
          .join('&')}`,
    ),
)

const authorization = fc.oneof(
  { weight: 2, arbitrary: fc.constant(undefined) },
  { weight: 5, arbitrary: fc.constantFrom(...DEMO_KEY_LIST).map((key) => `Bearer ${key}`) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '',
      'Bearer',
      'Bearer ',
      `bearer ${ACME.skTest}`,
      `Bearer  ${ACME.pkTest}  `,
      `Bearer ${ACME.skTest} ${ACME.skTest}`,
      `Basic ${ACME.skTest}`,
      `Bearer ${'a'.repeat(5000)}`,
      'Bearer sk_test_é',
    ),
  },
  { weight: 1, arbitrary: latin1(40).map((garbage) => `Bearer ${garbage}`) },
  { weight: 1, arbitrary: latin1(40) },
)

const contentType = fc.oneof(
  { weight: 1, arbitrary: fc.constant(undefined) },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      'application/json',
      'application/json; charset=utf-8',
      'APPLICATION/JSON',
      'text/plain',
      'text/plain;charset=UTF-8',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/json-patch+json',
      ';',
      '',
    ),
  },
  { weight: 1, arbitrary: latin1(30) },
)

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
        type: nearly(fc.constantFrom('click', 'signup', 'purchase'), fc.constantFrom('refund', 1)),
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
  .map(([event, dice]) => (dice === 0 ? { ...event, extra: true } : event))

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
  referredReward: reward,
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

const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK'])
const method = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.constantFrom('GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'HEAD', 'OPTIONS'),
  },
  // Lower-case names other than the six the fetch standard normalizes stay as they are.
  { weight: 1, arbitrary: fc.constantFrom('get', 'post', 'PROPFIND', 'QUERY') },
  {
    weight: 1,
    arbitrary: fc
      .stringMatching(/^[A-Za-z]{1,10}$/)
      .filter((name) => !FORBIDDEN_METHODS.has(name.toUpperCase()) && name !== 'patch'),
  },
)

const extraHeaders = fc.record(
  {
    'Content-Length': fc.constantFrom(
      '0',
      '-1',
      'abc',
      '1e9',
      '65536',
      '65537',
      '99999999999999999999',
    ),
    'X-Forwarded-For': fc.oneof(latin1(30), fc.constantFrom('203.0.113.9, 198.51.100.7', ',,,')),
    Forwarded: fc.oneof(latin1(30), fc.constantFrom('for="[2001:db8::1]:4711"', 'for=;for=')),
    Origin: fc.constantFrom('https://shop.example', 'null'),
    'Access-Control-Request-Method': fc.constantFrom('PATCH', 'DELETE'),
  },
  { requiredKeys: [] },
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

const anyRequest = fc.oneof(
  { weight: 3, arbitrary: routedRequest },
  { weight: 2, arbitrary: wildRequest },
)
type FuzzRequest = typeof anyRequest extends fc.Arbitrary<infer T> ? T : never

interface Sent {
  status: number
  headers: Headers
  text: string
  /** Everything the request carried, to tell an echo of the input from a leak. */
  input: string
}

async function send(world: World, request: FuzzRequest): Promise<Sent> {
  const headers = new Headers(request.extraHeaders)
  if (request.authorization !== undefined) headers.set('Authorization', request.authorization)
  if (request.contentType !== undefined) headers.set('Content-Type', request.contentType)
  const url = `http://localhost${fill(request.path, world)}${fill(request.query, world)}`
  const hasBody =
    request.body !== undefined && !['GET', 'HEAD'].includes(request.method.toUpperCase())
  const payload =
    typeof request.body === 'string' ? fill(request.body, world) : (request.body ?? null)
  const response = await world.service.app.request(
    new Request(url, {
      method: request.method,
      headers,
      ...(hasBody ? { body: payload } : {}),
    }),
    undefined,
    { incoming: { socket: { remoteAddress: PEER } } },
  )
  const text = await response.text()
  const input = [
    request.method,
    url,
    ...headers.entries(),
    typeof payload === 'string' ? payload : '',
  ].join('\n')
  return { status: response.status, headers: response.headers, text, input }
}

const EXPOSED = ['retry-after', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']

/**
 * The contract's answer to anything: no 5xx, no leak, readable cross-origin, and errors in the
 * error body.
 */
function expectContractAnswer(sent: Sent, method: string) {
  expect(sent.status, sent.text).toBeLessThan(500)
  for (const leak of LEAKS) {
    if (!leak.test(sent.input)) expect(sent.text).not.toMatch(leak)
  }
  expect(sent.headers.get('access-control-allow-origin')).toBe('*')
  if (method.toUpperCase() !== 'OPTIONS') {
    const exposed = (sent.headers.get('access-control-expose-headers') ?? '').toLowerCase()
    for (const header of EXPOSED) expect(exposed).toContain(header)
  }
  // A HEAD answer has no body; a preflight's is empty.
  if (method.toUpperCase() === 'HEAD' || sent.status === 204) return
  expect(sent.headers.get('content-type') ?? '').toMatch(/^application\/json\b/)
  const parsed: unknown = JSON.parse(sent.text)
  if (sent.status < 400) return
  const expected = ERRORS[sent.status]
  expect(expected, `status ${sent.status} is not in the contract`).toBeDefined()
  const answer = { status: sent.status, headers: sent.headers, body: parsed }
  const error = errorOf(answer)
  expect(Object.keys(parsed as object)).toEqual(['error'])
  expect(
    Object.keys(error).every((field) => ['type', 'code', 'message', 'param'].includes(field)),
  ).toBe(true)
  expect(error.type).toBe(expected?.type)
  expect(expected?.codes).toContain(error.code)
  expect(error.message.length).toBeGreaterThan(0)
}

// ---------------------------------------------------------------------------------------------
// What a request can change

const OWNER_KEYS = [ACME.skTest, ACME.skLive, GLOBEX.skTest, GLOBEX.skLive]

/** Everything the owners can see: each world's campaigns with stats, and the fixture link. */
async function observe(world: World) {
  const seen: unknown[] = []
  for (const key of OWNER_KEYS) {
    const list = await world.call<{ data: { id: string }[] }>('GET', '/v1/campaigns?limit=100', {
      key,
    })
    seen.push(list.body)
    for (const { id } of list.body.data) {
      seen.push((await world.call('GET', `/v1/campaigns/${id}`, { key })).body)
    }
  }
  seen.push((await world.call('GET', `/v1/links/${world.code}`, { key: ACME.skTest })).body)
  return seen
}

/** The worlds (org/mode) a request could act in: those of the demo keys it carries. */
function scopesNamedBy(request: FuzzRequest): Set<string> {
  const carried = `${request.authorization ?? ''}\n${typeof request.body === 'string' ? request.body : ''}`
  const scopes = new Set<string>()
  for (const org of ['acme', 'globex']) {
    for (const mode of ['test', 'live']) {
      if (new RegExp(`[ps]k_${mode}_${org}`).test(carried)) scopes.add(`org_${org}/${mode}`)
    }
  }
  return scopes
}

describe('any request', () => {
  it(
    'gets the contract’s answer: never a 5xx or a stack trace, readable cross-origin, errors in the error body',
    async () => {
      const prototypeBefore = Object.getOwnPropertyNames(Object.prototype)
      await fc.assert(
        fc.asyncProperty(anyRequest, async (request) => {
          const world = await makeWorld()
          expectContractAnswer(await send(world, request), request.method)
          // The service still works afterwards, and no body polluted Object.prototype.
          const after = await world.call('GET', `/v1/campaigns/${DEMO_CAMPAIGNS.acme}`, {
            key: ACME.skTest,
          })
          expect(after.status).toBe(200)
          expect(Object.getOwnPropertyNames(Object.prototype)).toEqual(prototypeBefore)
        }),
        fuzzOptions,
      )
    },
    fuzzTimeout(20),
  )

  it(
    'when refused (4xx), changes nothing; when accepted, writes only in its own org and mode',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(anyRequest, { minLength: 1, maxLength: 3 }), async (requests) => {
          const world = await makeWorld()
          for (const request of requests) {
            const before = await observe(world)
            world.writes.length = 0
            const sent = await send(world, request)
            const writes = [...world.writes]
            if (sent.status >= 400) {
              expect(writes, `${sent.status} ${sent.text}`).toEqual([])
              expect(await observe(world)).toEqual(before)
            } else {
              const allowed = scopesNamedBy(request)
              for (const write of writes) expect([...allowed]).toContain(write.split(' ')[1])
            }
            // Within an accepted events request, a duplicate or rejected event changes nothing.
            if (sent.status === 200 && sent.text.includes('"results"')) {
              const { results } = JSON.parse(sent.text) as { results: EventResult[] }
              const accepted = results.filter((result) => result.status === 'accepted').length
              const marked = writes.filter((write) => write.startsWith('markAccepted ')).length
              expect(marked).toBe(accepted)
              if (accepted === 0) expect(writes).toEqual([])
            }
          }
        }),
        fuzzOptions,
      )
    },
    fuzzTimeout(40),
  )
})

// ---------------------------------------------------------------------------------------------
// The status table, for any sequence of moves

type Status = 'active' | 'paused' | 'archived'
const NEXT: Record<Status, readonly Status[]> = {
  active: ['paused', 'archived'],
  paused: ['active', 'archived'],
  archived: [],
}

describe('campaign status', () => {
  it(
    'follows the state table for any sequence of patches; public keys see active campaigns only',
    async () => {
      const move = fc.record({
        status: fc.oneof(
          { weight: 6, arbitrary: fc.constantFrom<Status>('active', 'paused', 'archived') },
          { weight: 1, arbitrary: fc.constantFrom('deleted', 'ACTIVE', '') },
        ),
        waitMs: fc.constantFrom(0, 0, 1, 1000),
      })
      await fc.assert(
        fc.asyncProperty(fc.array(move, { minLength: 1, maxLength: 8 }), async (moves) => {
          const { call, clock } = setup(NO_LIMITS)
          const made = await call<Campaign>('POST', '/v1/campaigns', {
            key: ACME.skTest,
            body: fuzzCampaign(),
          })
          const id = made.body.id
          let status: Status = 'active'
          let updatedAt = (await call<Campaign>('GET', `/v1/campaigns/${id}`, { key: ACME.skTest }))
            .body.updatedAt
          for (const { status: next, waitMs } of moves) {
            clock.advance(waitMs)
            const answer = await call('PATCH', `/v1/campaigns/${id}`, {
              key: ACME.skTest,
              body: { status: next },
            })
            const known = next === 'active' || next === 'paused' || next === 'archived'
            if (!known) {
              expect(answer.status).toBe(400)
              expect(errorOf(answer).code).toBe('parameter_invalid')
            } else if (next === status || NEXT[status].includes(next)) {
              expect(answer.status).toBe(200)
            } else {
              expect(answer.status).toBe(409)
              expect(errorOf(answer).code).toBe('invalid_state_transition')
            }
            const changed = answer.status === 200 && next !== status
            if (answer.status === 200) status = next as Status

            const shown = await call<Campaign>('GET', `/v1/campaigns/${id}`, { key: ACME.skTest })
            expect(shown.body.status).toBe(status)
            if (changed)
              expect(Date.parse(shown.body.updatedAt)).toBeGreaterThan(Date.parse(updatedAt))
            else expect(shown.body.updatedAt).toBe(updatedAt)
            updatedAt = shown.body.updatedAt

            const publicDetail = await call('GET', `/v1/campaigns/${id}`, { key: ACME.pkTest })
            expect(publicDetail.status).toBe(status === 'active' ? 200 : 404)
            const publicList = await call<{ data: { id: string }[] }>('GET', '/v1/campaigns', {
              key: ACME.pkTest,
            })
            expect(publicList.body.data.some((campaign) => campaign.id === id)).toBe(
              status === 'active',
            )
            const link = await call('POST', '/v1/links', {
              key: ACME.pkTest,
              body: { campaignId: id, referrerId: 'user_status' },
            })
            if (status === 'active') expect([200, 201]).toContain(link.status)
            else expect(errorOf(link).code).toBe('campaign_not_active')
          }
        }),
        fuzzOptions,
      )
    },
    fuzzTimeout(20),
  )
})

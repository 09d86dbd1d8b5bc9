// The head of the requests the service's property tests send: methods, paths (with placeholders
// for the ids of fuzz-world.ts), queries, keys and other headers, each of any shape, weighted
// towards what the service knows.

import fc from 'fast-check'
import { ACME, GLOBEX } from './fuzz-world.ts'
import { DEMO_KEYS } from './helpers.ts'

const PLACEHOLDERS = [
  '{active}',
  '{paused}',
  '{archived}',
  '{live}',
  '{foreign}',
  '{code}',
] as const
export const DEMO_KEY_LIST = [
  ...Object.values(ACME),
  ...Object.values(GLOBEX),
  DEMO_KEYS.acmeRolled,
]

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

export const path = fc.oneof(
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
export const query = fc.oneof(
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

export const authorization = fc.oneof(
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

export const contentType = fc.oneof(
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

const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK'])
export const method = fc.oneof(
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

export const extraHeaders = fc.record(
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

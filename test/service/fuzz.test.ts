// Property-based tests of the reference service (fast-check): whatever arrives, the answer is
// the contract's (never a 500, never a stack trace, errors in the error body); a refused
// request changes nothing (the requests: fuzz-requests.ts; the status table for any sequence of
// moves: campaign-status.fuzz.test.ts; events counting exactly once: events.fuzz.test.ts).
// FUZZ_RUNS sets the number of runs (test/support/fuzz.ts).

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { EventResult } from '../../demo/service/schemas.ts'
import { fuzzOptions, fuzzTimeout } from '../support/fuzz.ts'
import { anyRequest, type FuzzRequest } from './fuzz-requests.ts'
import { ACME, GLOBEX, makeWorld, type Sent, send, type World } from './fuzz-world.ts'
import { DEMO_CAMPAIGNS, errorOf, LEAKS } from './helpers.ts'

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
            // Within an accepted events request, a duplicate or rejected event changes nothing,
            // but a self-referral's refusal, counted once in its campaign's stats (extension).
            if (sent.status === 200 && sent.text.includes('"results"')) {
              const { results } = JSON.parse(sent.text) as { results: EventResult[] }
              const accepted = results.filter((result) => result.status === 'accepted').length
              const marked = writes.filter((write) => write.startsWith('markAccepted ')).length
              expect(marked).toBe(accepted)
              const selfReferrals = results.filter(
                (result) => result.error?.code === 'self_referral',
              ).length
              const counted = writes.filter((write) => write.startsWith('markSelfReferral ')).length
              expect(counted).toBeLessThanOrEqual(selfReferrals)
              if (accepted === 0) {
                expect(writes).toEqual(
                  writes.filter((write) => /^(markSelfReferral|saveCampaign) /.test(write)),
                )
                expect(writes.length).toBe(2 * counted)
              }
            }
          }
        }),
        fuzzOptions,
      )
    },
    fuzzTimeout(40),
  )
})

// What the contract tests of keys, mode and organization isolation, error bodies, request bodies
// and CORS share: the demo orgs' keys, the exact check of an error body, a header-list reader, a
// store that fails inside, and a one-click events body.

import { expect } from 'vitest'
import { createMemoryStore, type Store } from '../../demo/service/store.ts'
import { type Answer, DEMO_KEYS, errorOf } from './helpers.ts'

export const ACME = DEMO_KEYS.acme
export const GLOBEX = DEMO_KEYS.globex

/** CONTRACT.md "Errors": the type that goes with each status. */
const TYPE_OF_STATUS: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  405: 'invalid_request_error',
  409: 'invalid_request_error',
  413: 'invalid_request_error',
  415: 'invalid_request_error',
  429: 'rate_limit_error',
  500: 'api_error',
}

/** Checks the contract's error body exactly, and the type for the status. */
export function expectErrorBody(answer: Answer, status: number, code?: string) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status)
  expect(answer.headers.get('content-type') ?? '').toMatch(/^application\/json\b/)
  const body = answer.body as Record<string, unknown>
  expect(typeof body).toBe('object')
  expect(Object.keys(body)).toEqual(['error'])
  const error = body.error as Record<string, unknown>
  for (const field of Object.keys(error)) {
    expect(['type', 'code', 'message', 'param']).toContain(field)
  }
  expect(typeof error.type).toBe('string')
  expect(typeof error.code).toBe('string')
  expect(typeof error.message).toBe('string')
  expect((error.message as string).length).toBeGreaterThan(0)
  if ('param' in error) expect(typeof error.param).toBe('string')
  expect(error.type).toBe(TYPE_OF_STATUS[status])
  if (code !== undefined) expect(error.code).toBe(code)
  return errorOf(answer)
}

/** A comma-separated header's items, trimmed and lower-cased. */
export const splitList = (value: string | null) =>
  (value ?? '')
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .filter(Boolean)

/** A store whose campaign lookups blow up, with a key and a stack in the error. */
export function explodingStore(): Store {
  const base = createMemoryStore()
  return {
    ...base,
    campaign: (scope, id) => {
      if (id === 'camp_explodeExplode123') {
        const error = new TypeError(
          `boom for ${ACME.skTest} at /work/main/demo/service/store.ts:42:7`,
        )
        throw error
      }
      return base.campaign(scope, id)
    },
  }
}

/** An events body with one click on `code`. */
export const eventsBody = (id: string, code: string) => ({
  events: [{ id, type: 'click', code, visitorId: 'visitor_isolation1' }],
})

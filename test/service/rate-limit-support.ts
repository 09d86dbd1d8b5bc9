// What the rate-limit tests share (CONTRACT.md "Rate limits"): the client addresses, a cheap
// counted request, and the check of a 429.

import { expect } from 'vitest'
import { type Answer, DEMO_CAMPAIGNS, DEMO_KEYS, errorOf, type setup } from './helpers.ts'

export const ACME = DEMO_CAMPAIGNS.acme
export const { pkTest, skTest } = DEMO_KEYS.acme
export const CLIENT = '198.51.100.7'
export const OTHER_CLIENT = '203.0.113.9'
export const PROXY = '10.0.0.1'

export type Call = ReturnType<typeof setup>['call']

/** A cheap counted request: the public view of the seeded campaign. */
export const ask = (
  call: Call,
  options: { key?: string; ip?: string; headers?: Record<string, string> } = {},
) => call('GET', `/v1/campaigns/${ACME}`, { key: pkTest, ip: CLIENT, ...options })

export async function askTimes(call: Call, times: number, options: Parameters<typeof ask>[1] = {}) {
  const answers: Answer[] = []
  for (let i = 0; i < times; i++) answers.push(await ask(call, options))
  return answers
}

export function expectLimited(answer: Answer) {
  expect(answer.status).toBe(429)
  expect(errorOf(answer)).toMatchObject({ type: 'rate_limit_error', code: 'rate_limited' })
  expect(answer.headers.get('Retry-After')).toMatch(/^[1-9][0-9]*$/)
}

export const retryAfter = (answer: Answer) => Number(answer.headers.get('Retry-After'))
export const header = (answer: Answer, name: string) => answer.headers.get(name)

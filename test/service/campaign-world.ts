// What the /v1/campaigns contract tests share: the create bodies they send, their checks of an
// error answer, and a world of calls (create, detail, patch, list, setStatus, count) with org_acme's
// test-mode secret key by default.

import { expect } from 'vitest'
import type { Campaign } from '../../demo/service/schemas.ts'
import { type Answer, DEMO_KEYS, errorOf, setup } from './helpers.ts'

export const SK = DEMO_KEYS.acme.skTest
export const PK = DEMO_KEYS.acme.pkTest

export const ISO_WITH_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

type ListItem = Pick<
  Campaign,
  'id' | 'name' | 'status' | 'rewardTrigger' | 'referrerReward' | 'referredReward' | 'createdAt'
>
interface CampaignList<T = ListItem> {
  data: T[]
  total: number
  hasMore: boolean
}
type PatchAnswer = Partial<Campaign> & { id: string; updatedAt: string }

export const validBody = (): Record<string, unknown> => ({
  name: 'Spring referral push',
  description: 'Give 5, get 5.',
  rewardTrigger: 'signup',
  referrerReward: { type: 'credit', amount: 5, currency: 'USD' },
  referredReward: { type: 'credit', amount: 5, currency: 'USD' },
  limits: { maxReferralsPerUser: 10, maxReferralsPerDay: 3 },
  attributionWindow: '14d',
})

/** The minimal create body: only the fields CONTRACT.md makes required. */
export const minimalBody = (): Record<string, unknown> => ({
  name: 'Minimal',
  rewardTrigger: 'signup',
  referrerReward: { type: 'credit', amount: 1 },
  referredReward: { type: 'credit', amount: 2 },
})

/** A copy of `body` with the value at a dotted path replaced, or removed when `value` is omitted. */
export function withPath(
  body: Record<string, unknown>,
  path: string,
  ...value: [unknown] | []
): Record<string, unknown> {
  const copy = structuredClone(body)
  const steps = path.split('.')
  const last = steps.pop() as string
  let target: Record<string, unknown> = copy
  for (const step of steps) {
    const next = target[step]
    if (typeof next !== 'object' || next === null) {
      target[step] = {}
    }
    target = target[step] as Record<string, unknown>
  }
  if (value.length === 0) delete target[last]
  else target[last] = value[0]
  return copy
}

/** A short label for a test name: long strings by their length. */
export const show = (value: unknown) =>
  typeof value === 'string' && value.length > 20 ? `${value.length} chars` : JSON.stringify(value)

export function expectError(answer: Answer, status: number, code: string, param?: string) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status)
  const error = errorOf(answer)
  expect(error.code).toBe(code)
  if (param !== undefined) expect(error.param).toBe(param)
  return error
}

export function world(options: Parameters<typeof setup>[0] = {}) {
  const ctx = setup(options)
  const { call } = ctx
  const startedAt = new Date(ctx.clock.now()).toISOString()

  const create = async (body: unknown = validBody(), key: string = SK) => {
    const answer = await call<Campaign>('POST', '/v1/campaigns', { key, body })
    expect(answer.status, JSON.stringify(answer.body)).toBe(201)
    return answer.body
  }
  const detail = async (id: string, key: string = SK) => {
    const answer = await call<Campaign>('GET', `/v1/campaigns/${id}`, { key })
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    return answer.body
  }
  const patch = (id: string, body: unknown, key: string = SK) =>
    call<PatchAnswer>('PATCH', `/v1/campaigns/${id}`, { key, body })
  const list = <T = ListItem>(query = '', key: string = SK) =>
    call<CampaignList<T>>('GET', `/v1/campaigns${query}`, { key })
  const setStatus = async (id: string, status: string) => {
    const answer = await patch(id, { status })
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
  }
  const count = async (key: string = SK) => {
    const answer = await list('?limit=100', key)
    expect(answer.status).toBe(200)
    return answer.body.total
  }
  return { ...ctx, startedAt, create, detail, patch, list, setStatus, count }
}

// Drives the service in-process: no port, a manual clock, a chosen client address.

import { createService, type ServiceOptions } from '../../demo/service/app.ts'
import { createManualClock, type ManualClock } from '../../demo/service/clock.ts'
import { ErrorBody } from '../../demo/service/schemas.ts'

export { DAY, HOUR, MINUTE, SECOND } from '../../demo/service/clock.ts'
export { DEMO_CAMPAIGNS, DEMO_KEYS } from '../../demo/service/seed.ts'

export interface CallOptions {
  key?: string
  /** JSON-encoded unless a string. */
  body?: unknown
  headers?: Record<string, string>
  /** The TCP peer's address. */
  ip?: string
}

export interface Answer<T = unknown> {
  status: number
  headers: Headers
  body: T
}

export function setup(options: Omit<ServiceOptions, 'clock'> = {}) {
  const clock: ManualClock = createManualClock()
  const service = createService({ ...options, clock, log: () => {} })

  async function call<T = unknown>(
    method: string,
    path: string,
    options: CallOptions = {},
  ): Promise<Answer<T>> {
    const headers: Record<string, string> = { ...options.headers }
    if (options.key !== undefined) headers.Authorization = `Bearer ${options.key}`
    let body: string | undefined
    if (options.body !== undefined) {
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body)
      headers['Content-Type'] ??= 'application/json'
    }
    const response = await service.app.request(
      path,
      { method, headers, ...(body === undefined ? {} : { body }) },
      { incoming: { socket: { remoteAddress: options.ip ?? '198.51.100.7' } } },
    )
    const text = await response.text()
    let parsed: unknown = text
    try {
      parsed = text ? JSON.parse(text) : undefined
    } catch {}
    return { status: response.status, headers: response.headers, body: parsed as T }
  }

  return { service, clock, call }
}

/** The error body of an answer, checked against the contract's shape. */
export function errorOf(answer: Answer): ErrorBody['error'] {
  return ErrorBody.parse(answer.body).error
}

type Call = ReturnType<typeof setup>['call']

/** What a leaked stack trace or internal detail looks like in an answer. */
export const LEAKS = [
  /\n\s*at \S/,
  /\bat \S+ \(/,
  /\.[cm]?[jt]sx?:\d+/,
  /node_modules/,
  /file:\/\//,
  /\b(?:Type|Reference|Range|Syntax|URI)Error\b/,
]

/** CONTRACT.md: what a pk_ key sees of a campaign, list or detail (sorted). */
export const PUBLIC_FIELDS = [
  'attributionWindow',
  'createdAt',
  'id',
  'name',
  'referredReward',
  'referrerReward',
  'rewardTrigger',
  'status',
]

/** A create body with only the fields the contract requires. */
export const campaignBody = (name = 'Test campaign') => ({
  name,
  rewardTrigger: 'signup',
  referrerReward: { type: 'credit', amount: 5 },
  referredReward: { type: 'credit', amount: 5 },
})

/** A new active campaign of org_acme's test mode, made with sk_test_acme; returns its id. */
export async function createCampaign(
  call: Call,
  fields: Record<string, unknown> = {},
): Promise<string> {
  const answer = await call<{ id: string }>('POST', '/v1/campaigns', {
    key: 'sk_test_acme',
    body: { ...campaignBody('Test campaign'), ...fields },
  })
  if (answer.status !== 201) throw new Error(`creating a campaign answered ${answer.status}`)
  return answer.body.id
}

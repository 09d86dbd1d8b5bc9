// What the payment webhook tests share: the local service in-process on virtual time (as the
// other server tests reach it), a purchase campaign, a friend's click on alice's link and its
// checkout reference, deliveries to a handler, and the campaign's stats as the judge.
import { expect, vi } from 'vitest'
import { makeCheckoutReference } from '../../../src/api/checkout-reference.ts'
import type { WebhookHandler } from '../../../src/server.ts'
import { createCampaign } from '../../service/helpers.ts'
import { localService } from '../service-world.ts'

export interface CampaignStats {
  totalClicks: number
  totalConversions: number
  totalRewardsIssued: number
  reversedConversions?: number
}

/** An answer's status and JSON body. */
export interface Answer {
  status: number
  body: { outcome?: string; reason?: string; error?: string }
}

/** The local service, a purchase campaign, and the ways to deliver and judge. */
export async function paymentWorld() {
  const local = localService()
  const campaignId = await createCampaign(local.call, { rewardTrigger: 'purchase' })
  const onError = vi.fn()
  /** What every handler takes: acme's test secret key, this service, virtual time. */
  const options = { ...local.options, onError }

  /** A friend's click on alice's link (as the widget sends it), and its checkout reference. */
  const referredVisitor = async (visitorId = 'v_friend_0001') => {
    const code = await local.linkCode(campaignId, 'alice')
    const sent = await local.send([{ id: `e_click_${visitorId}`, type: 'click', code, visitorId }])
    expect(sent.body.results[0]?.status).toBe('accepted')
    const reference = await makeCheckoutReference(code, visitorId)
    if (!reference) throw new Error('no reference')
    return { code, visitorId, reference }
  }

  /** One delivery of `body` (as signed: text, or bytes) with `headers`, on virtual time. */
  const deliver = async (
    handler: WebhookHandler,
    body: string | Uint8Array<ArrayBuffer>,
    headers: Record<string, string>,
  ): Promise<Answer> => {
    const request = new Request('https://shop.example.test/webhooks', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body,
    })
    const response = await local.time.drive(handler(request))
    expect(response.headers.get('content-type')).toBe('application/json')
    return { status: response.status, body: await response.json() }
  }

  const stats = () => local.stats<CampaignStats>(campaignId)

  return { ...local, campaignId, options, onError, referredVisitor, deliver, stats }
}

/** The answers every provider gives, as `deliver` reads them. */
export const RECORDED = { status: 200, body: { outcome: 'recorded' } }
export const DUPLICATE = { status: 200, body: { outcome: 'duplicate' } }
export const ignored = (reason: string) => ({ status: 200, body: { outcome: 'ignored', reason } })
export const SIGNATURE_INVALID = { status: 400, body: { error: 'signature_invalid' } }

/** What a provider's tests deliver with: an event signed as the provider signs it. */
type Sign = (event: unknown) => Promise<{ body: string; headers: Record<string, string> }>

/**
 * The payment world with a provider's handler, made by `make` from the world's options, and
 * `send`, which signs an event with `sign` and delivers it.
 */
export async function webhookWorld(
  make: (options: Awaited<ReturnType<typeof paymentWorld>>['options']) => WebhookHandler,
  sign: Sign,
) {
  const local = await paymentWorld()
  const handler = make(local.options)
  const send = async (event: unknown) => {
    const { body, headers } = await sign(event)
    return local.deliver(handler, body, headers)
  }
  return { ...local, handler, send }
}

/** The outcomes of several answers as a multiset: `{ recorded: 1, duplicate: 9 }`. */
export function tally(answers: Answer[]): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const { status, body } of answers) {
    const key = status === 200 ? String(body.outcome) : `${status} ${body.error}`
    counts[key] = (counts[key] ?? 0) + 1
  }
  return counts
}

/** The purchase and refund events the handler sent to the service, in order. */
export function eventsSent(fetchSpy: { mock: { calls: unknown[][] } }) {
  return fetchSpy.mock.calls.map(([, init]) => {
    const [event] = JSON.parse(String((init as RequestInit).body)).events
    return event as Record<string, unknown>
  })
}

/** A fetch that fails every request as a network error does (the service unreachable). */
export const unreachable = () =>
  vi.fn(async () => {
    throw new TypeError('fetch failed')
  })

/** Hex HMAC-SHA256 of `text` with `secret` (Paddle's h1, Lemon Squeezy's X-Signature). */
export async function hmacHex(
  secret: string,
  text: string | Uint8Array<ArrayBuffer>,
): Promise<string> {
  const encoder = new TextEncoder()
  const key = await crypto.subtle.importKey(
    'raw',
    encoder.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  )
  const data = typeof text === 'string' ? encoder.encode(text) : text
  const signature = new Uint8Array(await crypto.subtle.sign('HMAC', key, data))
  return Array.from(signature, (byte) => byte.toString(16).padStart(2, '0')).join('')
}

// The requests the API client makes: method, path, headers and body of each call, and the
// beacon form (shared fixtures: test/support/api-client.ts).
import { describe, expect, it, vi } from 'vitest'
import {
  BASE,
  CAMPAIGN,
  clientWith,
  EVENT,
  json,
  KEY,
  LINK,
  restoreTimersAndGlobals,
  withCalls,
} from '../../test/support/api-client.ts'
import { createApiClient, type FetchLike } from './client.ts'

restoreTimersAndGlobals()

describe('requests', () => {
  it('POSTs a link request as JSON with the public key as a bearer token', async () => {
    const { client, fetch, call } = clientWith(async () => json(LINK, 201))
    await expect(client.createLink('camp_abcdefghijklmnop', 'user_42')).resolves.toEqual(LINK)
    expect(fetch).toHaveBeenCalledTimes(1)
    const { url, init, headers } = call()
    expect(url).toBe(`${BASE}/v1/links`)
    expect(init.method).toBe('POST')
    expect(headers.get('Authorization')).toBe('Bearer pk_test_acme')
    expect(headers.get('Content-Type')).toBe('application/json')
    expect(typeof init.body).toBe('string')
    expect(JSON.parse(String(init.body))).toEqual({
      campaignId: 'camp_abcdefghijklmnop',
      referrerId: 'user_42',
    })
  })

  it('sends events in an {events: [...]} envelope and returns the per-event results', async () => {
    const results = { results: [{ id: EVENT.id, status: 'accepted' }] }
    const { client, call } = clientWith(async () => json(results))
    await expect(client.sendEvents([EVENT])).resolves.toEqual(results)
    const { url, init, headers } = call()
    expect(url).toBe(`${BASE}/v1/events`)
    expect(init.method).toBe('POST')
    expect(headers.get('Authorization')).toBe(`Bearer ${KEY}`)
    expect(headers.get('Content-Type')).toBe('application/json')
    expect(JSON.parse(String(init.body))).toEqual({ events: [EVENT] })
  })

  it('GETs a campaign with the bearer token, no body and no cookies', async () => {
    const { client, call } = clientWith(async () => json(CAMPAIGN))
    await expect(client.campaign('camp_abcdefghijklmnop')).resolves.toEqual(CAMPAIGN)
    const { url, init, headers } = call()
    expect(url).toBe(`${BASE}/v1/campaigns/camp_abcdefghijklmnop`)
    expect(init.method).toBe('GET')
    expect(init.body).toBeUndefined()
    expect(init.credentials).toBe('omit')
    expect(headers.get('Authorization')).toBe(`Bearer ${KEY}`)
  })

  it('escapes ids in the path', async () => {
    const { client, call } = clientWith(async () => json(CAMPAIGN))
    await client.campaign('camp_../../v1/x?y')
    expect(call().url).toBe(`${BASE}/v1/campaigns/camp_..%2F..%2Fv1%2Fx%3Fy`)
  })

  it('joins an API base given with trailing slashes without doubling them', async () => {
    const { client, call } = clientWith(async () => json(LINK, 201), {
      apiBase: `${BASE}/api//`,
    })
    await client.createLink('camp_abcdefghijklmnop', 'user_42')
    expect(call().url).toBe(`${BASE}/api/v1/links`)
  })

  it('asks for the newest active campaign and returns it, or null when there is none', async () => {
    const found = clientWith(async () => json({ data: [CAMPAIGN], total: 3, hasMore: true }))
    await expect(found.client.newestActiveCampaign()).resolves.toEqual(CAMPAIGN)
    expect(found.call().url).toBe(`${BASE}/v1/campaigns?status=active&limit=1`)
    const none = clientWith(async () => json({ data: [], total: 0, hasMore: false }))
    await expect(none.client.newestActiveCampaign()).resolves.toBeNull()
  })

  it('uses the global fetch at call time when none is injected', async () => {
    const client = withCalls(createApiClient({ apiBase: BASE, publicKey: KEY }))
    const fetch = vi.fn<FetchLike>(async () => json(LINK, 201))
    vi.stubGlobal('fetch', fetch)
    await expect(client.createLink('camp_abcdefghijklmnop', 'user_42')).resolves.toEqual(LINK)
    expect(fetch).toHaveBeenCalledTimes(1)
  })

  it('composes the beacon form (key in the body, no request made)', () => {
    const { client, fetch } = clientWith(async () => json({}))
    const beacon = client.beacon([EVENT])
    expect(beacon.url).toBe(`${BASE}/v1/events`)
    expect(JSON.parse(beacon.body)).toEqual({ key: KEY, events: [EVENT] })
    expect(fetch).not.toHaveBeenCalled()
  })
})

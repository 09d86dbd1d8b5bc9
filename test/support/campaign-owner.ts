// What the campaign's owner does with the secret key during a test: change the seeded campaign
// (or another) through the service's own API, as the dashboard would.
import { expect } from 'vitest'
import { campaignBody } from '../service/helpers.ts'
import type { createWorld } from './harness.ts'

export async function updateCampaign(
  world: Pick<ReturnType<typeof createWorld>, 'service'>,
  changes: Record<string, unknown>,
  campaignId = 'camp_acmeFriendsAndFamily',
) {
  const response = await world.service.app.request(`/v1/campaigns/${campaignId}`, {
    method: 'PATCH',
    headers: { Authorization: 'Bearer sk_test_acme', 'Content-Type': 'application/json' },
    body: JSON.stringify(changes),
  })
  expect(response.status).toBe(200)
}

/** A new active campaign of the seeded organisation's test mode; returns its id. */
export async function addCampaign(
  world: Pick<ReturnType<typeof createWorld>, 'service'>,
  name: string,
): Promise<string> {
  const response = await world.service.app.request('/v1/campaigns', {
    method: 'POST',
    headers: { Authorization: 'Bearer sk_test_acme', 'Content-Type': 'application/json' },
    body: JSON.stringify(campaignBody(name)),
  })
  expect(response.status).toBe(201)
  return ((await response.json()) as { id: string }).id
}

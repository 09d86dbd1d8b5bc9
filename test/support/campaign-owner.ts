// What the campaign's owner does with the secret key during a test: change the seeded campaign
// (or another) through the service's own API, as the dashboard would.
import { expect } from 'vitest'
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

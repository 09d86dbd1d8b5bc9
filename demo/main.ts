// Placeholder demo page: shows that the local service answers on this origin.
import { PublicCampaignList } from '../src/api/schemas.ts'

const status = document.querySelector('[data-testid="service-status"]')
const output = document.querySelector('#campaigns')

async function show() {
  if (!status || !output) return
  try {
    const response = await fetch('/v1/campaigns', {
      headers: { Authorization: 'Bearer pk_test_acme' },
    })
    const list = PublicCampaignList.parse(await response.json())
    status.textContent = `The service answers: ${list.total} active campaign(s) for pk_test_acme.`
    output.textContent = list.data
      .map(
        (c) =>
          `${c.name} · referrer ${c.referrerReward.amount} ${c.referrerReward.currency}, friend ${c.referredReward.amount} ${c.referredReward.currency}`,
      )
      .join('\n')
  } catch (error) {
    status.textContent = `The service did not answer: ${error instanceof Error ? error.message : String(error)}`
  }
}

void show()

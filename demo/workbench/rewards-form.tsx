// The acting campaign's rewards, edited through the admin route.
import { type CampaignSummary, demoApi, type Scope } from './api.ts'
import type { RunAction } from './control-group.tsx'
import { money } from './format.ts'

export interface Rewards {
  give: string
  get: string
  giveCurrency: string
  getCurrency: string
}

/** The values live in the campaign panel, which fills them from the campaign read back. */
export function RewardsForm(props: {
  scope: Scope
  acting: CampaignSummary
  rewards: Rewards
  setRewards: (rewards: Rewards) => void
  busy: boolean
  run: RunAction
  changed: () => void
}) {
  const { scope, acting, rewards, setRewards, busy, run } = props
  return (
    <form
      class="subform"
      aria-labelledby="rewards-title"
      onSubmit={(event) => {
        event.preventDefault()
        void run(async () => {
          await demoApi.updateCampaign(scope, acting.id, {
            referrerReward: { amount: Number(rewards.get), currency: rewards.getCurrency },
            referredReward: { amount: Number(rewards.give), currency: rewards.giveCurrency },
          })
          props.changed()
          return `Rewards of “${acting.name}”: referrer ${money(Number(rewards.get), rewards.getCurrency)}, friend ${money(Number(rewards.give), rewards.giveCurrency)}.`
        })
      }}
    >
      <h3 id="rewards-title">Edit rewards</h3>
      <div class="two">
        <div class="field">
          <label for="reward-get">Referrer gets</label>
          <input
            id="reward-get"
            type="number"
            min="0"
            step="0.01"
            value={rewards.get}
            onInput={(event) => setRewards({ ...rewards, get: event.currentTarget.value })}
          />
        </div>
        <div class="field">
          <label for="reward-get-currency">Currency</label>
          <input
            id="reward-get-currency"
            class="mono"
            maxLength={3}
            value={rewards.getCurrency}
            onInput={(event) =>
              setRewards({ ...rewards, getCurrency: event.currentTarget.value.toUpperCase() })
            }
          />
        </div>
        <div class="field">
          <label for="reward-give">Friend gets</label>
          <input
            id="reward-give"
            type="number"
            min="0"
            step="0.01"
            value={rewards.give}
            onInput={(event) => setRewards({ ...rewards, give: event.currentTarget.value })}
          />
        </div>
        <div class="field">
          <label for="reward-give-currency">Currency</label>
          <input
            id="reward-give-currency"
            class="mono"
            maxLength={3}
            value={rewards.giveCurrency}
            onInput={(event) =>
              setRewards({ ...rewards, giveCurrency: event.currentTarget.value.toUpperCase() })
            }
          />
        </div>
      </div>
      <button type="submit" disabled={busy}>
        Save rewards
      </button>
    </form>
  )
}

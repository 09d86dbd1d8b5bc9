// A new campaign (credits on the friend's sign-up or first purchase), created through the admin
// route; the widgets then use it.
import { demoApi, type RewardTrigger, type Scope } from './api.ts'
import type { RunAction } from './control-group.tsx'
import { rewardsOn, TRIGGER_LABELS } from './format.ts'

export interface Draft {
  name: string
  get: string
  give: string
  currency: string
  days: string
  trigger: RewardTrigger
}

/** The draft lives in the campaign panel, so it outlasts a switch to a refused key and back. */
export function NewCampaignForm(props: {
  scope: Scope
  draft: Draft
  setDraft: (draft: Draft) => void
  busy: boolean
  run: RunAction
  /** With the created campaign's id, which the widgets then use. */
  changed: (created: string) => void
}) {
  const { scope, draft, setDraft, busy, run } = props
  return (
    <form
      class="subform"
      aria-labelledby="create-title"
      onSubmit={(event) => {
        event.preventDefault()
        void run(async () => {
          const created = await demoApi.createCampaign(scope, {
            name: draft.name,
            rewardTrigger: draft.trigger,
            referrerReward: {
              type: 'credit',
              amount: Number(draft.get),
              currency: draft.currency,
            },
            referredReward: {
              type: 'credit',
              amount: Number(draft.give),
              currency: draft.currency,
            },
            attributionWindow: `${draft.days}d`,
          })
          props.changed(created.id)
          return `Created “${draft.name}” (${created.id}), ${created.status}, ${rewardsOn(draft.trigger)}; the widgets now use it.`
        })
      }}
    >
      <h3 id="create-title">Create a campaign</h3>
      <div class="field">
        <label for="create-name">Name</label>
        <input
          id="create-name"
          value={draft.name}
          required
          onInput={(event) => setDraft({ ...draft, name: event.currentTarget.value })}
        />
      </div>
      <div class="two">
        <div class="field">
          <label for="create-get">Referrer gets</label>
          <input
            id="create-get"
            type="number"
            min="0"
            step="0.01"
            value={draft.get}
            onInput={(event) => setDraft({ ...draft, get: event.currentTarget.value })}
          />
        </div>
        <div class="field">
          <label for="create-give">Friend gets</label>
          <input
            id="create-give"
            type="number"
            min="0"
            step="0.01"
            value={draft.give}
            onInput={(event) => setDraft({ ...draft, give: event.currentTarget.value })}
          />
        </div>
        <div class="field">
          <label for="create-currency">Currency</label>
          <input
            id="create-currency"
            class="mono"
            maxLength={3}
            value={draft.currency}
            onInput={(event) =>
              setDraft({ ...draft, currency: event.currentTarget.value.toUpperCase() })
            }
          />
        </div>
        <div class="field">
          <label for="create-days">Attribution days</label>
          <input
            id="create-days"
            type="number"
            min="1"
            max="365"
            value={draft.days}
            onInput={(event) => setDraft({ ...draft, days: event.currentTarget.value })}
          />
        </div>
      </div>
      <div class="field">
        <label for="create-trigger">Rewards on</label>
        <select
          id="create-trigger"
          value={draft.trigger}
          onChange={(event) =>
            setDraft({ ...draft, trigger: event.currentTarget.value as RewardTrigger })
          }
        >
          <option value="signup">the friend’s {TRIGGER_LABELS.signup}</option>
          <option value="purchase">the friend’s {TRIGGER_LABELS.purchase}</option>
        </select>
      </div>
      <button type="submit" class="primary" disabled={busy}>
        Create campaign
      </button>
    </form>
  )
}

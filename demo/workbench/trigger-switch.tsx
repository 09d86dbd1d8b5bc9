// What issues the acting campaign's rewards: the friend's sign-up or their first purchase. The
// interface fixes rewardTrigger at creation, so the switch is a demo control (/demo-api), which
// applies to the events recorded after it.
import { useEffect, useState } from 'preact/hooks'
import { type Campaign, demoApi, type RewardTrigger, type Scope } from './api.ts'
import type { RunAction } from './control-group.tsx'
import { TRIGGER_LABELS } from './format.ts'

const TRIGGERS = ['signup', 'purchase'] as const

export function TriggerSwitch(props: {
  scope: Scope
  campaign: Campaign
  busy: boolean
  run: RunAction
  /** After the switch: the widgets reload and read the campaign again. */
  changed: () => void
  setTrigger?: typeof demoApi.setTrigger
}) {
  const { scope, campaign, busy, run, setTrigger = demoApi.setTrigger } = props
  /** The switch shows what was asked for until the campaign read back says so too. */
  const [asked, setAsked] = useState<RewardTrigger | null>(null)
  const current = campaign.rewardTrigger
  useEffect(() => setAsked((before) => (before === current ? null : before)), [current])

  const choose = (trigger: RewardTrigger) => {
    setAsked(trigger)
    void run(async () => {
      try {
        await setTrigger(scope, campaign.id, trigger)
      } catch (failure) {
        setAsked(null)
        throw failure
      }
      props.changed()
      return trigger === 'purchase'
        ? `“${campaign.name}” now rewards the friend’s first purchase: a sign-up is a referral that issues nothing. The widgets reload and say so.`
        : `“${campaign.name}” now rewards the friend’s sign-up again. The widgets reload and say so.`
    })
  }

  return (
    <fieldset class="trigger" data-testid="reward-trigger">
      <legend>Rewards on</legend>
      <div class="segmented">
        {TRIGGERS.map((trigger) => (
          <label class="check" key={trigger} for={`trigger-${trigger}`}>
            <input
              id={`trigger-${trigger}`}
              type="radio"
              name="reward-trigger"
              value={trigger}
              checked={(asked ?? current) === trigger}
              disabled={busy || campaign.status === 'archived'}
              onChange={() => choose(trigger)}
            />
            <span>{TRIGGER_LABELS[trigger]}</span>
          </label>
        ))}
      </div>
      <p class="muted small">
        A demo control: the interface fixes <code>rewardTrigger</code> at creation. The switch
        counts for the events recorded after it.
      </p>
    </fieldset>
  )
}

// Campaign administration through the server's admin route (which holds the secret key): the
// acting campaign's status, its user-token rule and what issues its rewards, and the forms to
// edit its rewards and to create another. All of them report in one status line.
import { useEffect, useState } from 'preact/hooks'
import { type Campaign, type CampaignSummary, demoApi, type Scope } from './api.ts'
import { Group, Outcome, useAction } from './control-group.tsx'
import { type Draft, NewCampaignForm } from './new-campaign-form.tsx'
import { type Rewards, RewardsForm } from './rewards-form.tsx'
import { TriggerSwitch } from './trigger-switch.tsx'

export function CampaignPanel(props: {
  scope: Scope | null
  acting: CampaignSummary | undefined
  detail: Campaign | undefined
  /** After a change: the widgets reload; a created campaign is selected. */
  changed: (created?: string) => void
}) {
  const { scope, acting, detail } = props
  const { busy, outcome, run } = useAction()
  const [rewards, setRewards] = useState<Rewards>({
    give: '',
    get: '',
    giveCurrency: '',
    getCurrency: '',
  })
  /** The switch shows what was asked for until the campaign read back says so too. */
  const [requiring, setRequiring] = useState<boolean | null>(null)
  const required = detail?.requireUserToken
  useEffect(() => {
    if (required !== undefined) setRequiring((asked) => (asked === required ? null : asked))
  }, [required])
  const [draft, setDraft] = useState<Draft>({
    name: 'QA campaign',
    get: '5',
    give: '5',
    currency: 'USD',
    days: '30',
    trigger: 'signup',
  })

  const detailId = detail?.id
  useEffect(() => {
    if (!detail) return
    setRewards({
      get: String(detail.referrerReward.amount),
      getCurrency: detail.referrerReward.currency,
      give: String(detail.referredReward.amount),
      giveCurrency: detail.referredReward.currency,
    })
  }, [detailId])

  if (!scope) {
    return (
      <Group id="campaign-title" title="Campaign">
        <p class="muted">
          A refused key belongs to no organization: pick a pk_ key to manage campaigns.
        </p>
      </Group>
    )
  }

  const setStatus = (status: 'active' | 'paused' | 'archived', verb: string) =>
    run(async () => {
      if (!acting) throw new Error('No campaign to change.')
      await demoApi.updateCampaign(scope, acting.id, { status })
      props.changed()
      return `${verb} “${acting.name}”: now ${status}.`
    })

  return (
    <Group id="campaign-title" title="Campaign">
      <p class="muted small">
        Through{' '}
        <code>
          /demo-api/admin/{scope.org}/{scope.mode}
        </code>
        : the server adds the secret key; this page never sees it.
      </p>
      {acting ? (
        <p data-testid="acting-campaign">
          Acting on <strong>{acting.name}</strong>{' '}
          <span class={`badge status-${acting.status}`}>{acting.status}</span>
          <br />
          <span class="mono small muted">{acting.id}</span>
        </p>
      ) : (
        <p class="muted" data-testid="acting-campaign">
          No campaign in {scope.org} {scope.mode} mode: create one below.
        </p>
      )}
      <div class="buttons">
        <button
          type="button"
          disabled={busy || acting?.status !== 'active'}
          onClick={() => setStatus('paused', 'Paused')}
        >
          Pause
        </button>
        <button
          type="button"
          disabled={busy || acting?.status !== 'paused'}
          onClick={() => setStatus('active', 'Resumed')}
        >
          Resume
        </button>
        <button
          type="button"
          class="danger"
          disabled={busy || !acting || acting.status === 'archived'}
          onClick={() => setStatus('archived', 'Archived')}
        >
          Archive (final)
        </button>
      </div>
      {acting && detail?.id === acting.id && (
        <label class="check" for="require-user-token">
          <input
            id="require-user-token"
            type="checkbox"
            data-testid="require-user-token"
            checked={requiring ?? detail.requireUserToken}
            disabled={busy || acting.status === 'archived'}
            onChange={(event) => {
              const required = event.currentTarget.checked
              setRequiring(required)
              void run(async () => {
                try {
                  await demoApi.updateCampaign(scope, acting.id, { requireUserToken: required })
                } catch (failure) {
                  setRequiring(null)
                  throw failure
                }
                props.changed()
                return required
                  ? `“${acting.name}” now requires a user token: a public key makes a link only with that user's token.`
                  : `“${acting.name}” no longer requires a user token.`
              })
            }}
          />
          <span>
            Require a user token for links (<code>requireUserToken</code>)
          </span>
        </label>
      )}
      {acting && detail?.id === acting.id && (
        <TriggerSwitch
          scope={scope}
          campaign={detail}
          busy={busy}
          run={run}
          changed={() => props.changed()}
        />
      )}
      {acting && (
        <RewardsForm
          scope={scope}
          acting={acting}
          rewards={rewards}
          setRewards={setRewards}
          busy={busy}
          run={run}
          changed={() => props.changed()}
        />
      )}
      <NewCampaignForm
        scope={scope}
        draft={draft}
        setDraft={setDraft}
        busy={busy}
        run={run}
        changed={props.changed}
      />
      <Outcome outcome={outcome} testId="campaign-outcome" />
    </Group>
  )
}

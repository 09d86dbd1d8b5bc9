// The controls: widget settings, campaign administration (through the server's admin route,
// which holds the secret key), fault injection and offline, the service clock.
import { useStore } from '@nanostores/preact'
import type { ComponentChildren } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import { type Campaign, type CampaignSummary, demoApi, type FaultPlan, type Scope } from './api.ts'
import { errorText, money, offsetText } from './format.ts'
import { $offline, refreshAll } from './hub.ts'
import { KEY_CHOICES, keyChoice, LOCALES, type Settings, THEMES } from './settings.ts'

interface Outcome {
  text: string
  error: boolean
}

/** Runs an action, keeping its outcome for a status line. */
export function useAction() {
  const [busy, setBusy] = useState(false)
  const [outcome, setOutcome] = useState<Outcome | null>(null)
  const run = async (action: () => Promise<string>) => {
    setBusy(true)
    try {
      setOutcome({ text: await action(), error: false })
    } catch (failure) {
      setOutcome({ text: errorText(failure), error: true })
    } finally {
      setBusy(false)
      refreshAll()
    }
  }
  return { busy, outcome, run }
}

export function Outcome(props: { outcome: Outcome | null; testId: string }) {
  return (
    <p
      class={props.outcome?.error ? 'outcome error' : 'outcome'}
      role="status"
      data-testid={props.testId}
    >
      {props.outcome?.text ?? ''}
    </p>
  )
}

export function Group(props: { id: string; title: string; children: ComponentChildren }) {
  return (
    <details class="card group" open>
      <summary>
        <h2 id={props.id}>{props.title}</h2>
      </summary>
      {props.children}
    </details>
  )
}

// --- widget settings -----------------------------------------------------------------------

export function SettingsPanel(props: {
  settings: Settings
  update: (change: Partial<Settings>) => void
  campaigns: CampaignSummary[] | undefined
  reload: () => void
}) {
  const { settings, update, campaigns } = props
  const choice = keyChoice(settings.key)
  const [user, setUser] = useState(settings.user)
  useEffect(() => setUser(settings.user), [settings.user])
  const known = campaigns?.some((campaign) => campaign.id === settings.campaign)

  return (
    <Group id="settings-title" title="Widget settings">
      <div class="field">
        <label for="setting-key">Key</label>
        <select
          id="setting-key"
          value={settings.key}
          onChange={(event) => update({ key: event.currentTarget.value, campaign: '' })}
        >
          {KEY_CHOICES.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </div>
      {!choice?.scope && (
        <p class="note">
          The widget must refuse this key: one console error, no panel, and no request to the
          service (see each widget and the requests view).
        </p>
      )}
      <div class="field">
        <label for="setting-campaign">Campaign</label>
        <select
          id="setting-campaign"
          value={settings.campaign}
          disabled={!choice?.scope}
          onChange={(event) => update({ campaign: event.currentTarget.value })}
        >
          <option value="">Newest active (no data-campaign)</option>
          {campaigns?.map((campaign) => (
            <option key={campaign.id} value={campaign.id}>
              {campaign.name} · {campaign.status}
            </option>
          ))}
          {settings.campaign && !known && (
            <option value={settings.campaign}>{settings.campaign} (not in the list)</option>
          )}
        </select>
      </div>
      <form
        class="inline-form"
        onSubmit={(event) => {
          event.preventDefault()
          update({ user: user.trim() })
        }}
      >
        <label for="setting-user">Signed-in user</label>
        <input
          id="setting-user"
          class="mono"
          value={user}
          placeholder="signed out"
          autocomplete="off"
          spellcheck={false}
          onInput={(event) => setUser(event.currentTarget.value)}
        />
        <button type="submit">Sign in</button>
        <button
          type="button"
          disabled={settings.user === ''}
          onClick={() => {
            setUser('')
            update({ user: '' })
          }}
        >
          Sign out
        </button>
      </form>
      <p class="muted small" data-testid="signed-in">
        {settings.user ? `Signed in as ${settings.user}` : 'Signed out: the panel asks to sign in'}
      </p>
      <div class="two wide-first">
        <div class="field">
          <label for="setting-locale">Locale</label>
          <select
            id="setting-locale"
            value={settings.locale}
            onChange={(event) => update({ locale: event.currentTarget.value })}
          >
            {LOCALES.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="setting-theme">Theme</label>
          <select
            id="setting-theme"
            value={settings.theme}
            onChange={(event) => {
              const theme = THEMES.find((value) => value === event.currentTarget.value)
              if (theme) update({ theme })
            }}
          >
            {THEMES.map((theme) => (
              <option key={theme} value={theme}>
                {theme}
              </option>
            ))}
          </select>
        </div>
      </div>
      <label class="check" for="setting-consent">
        <input
          id="setting-consent"
          type="checkbox"
          checked={settings.consentRequired}
          onChange={(event) => update({ consentRequired: event.currentTarget.checked })}
        />
        <span>Consent required (data-consent="required")</span>
      </label>
      <button type="button" onClick={props.reload}>
        Reload widgets
      </button>
    </Group>
  )
}

// --- campaign administration ---------------------------------------------------------------

export function CampaignPanel(props: {
  scope: Scope | null
  acting: CampaignSummary | undefined
  detail: Campaign | undefined
  /** After a change: the widgets reload; a created campaign is selected. */
  changed: (created?: string) => void
}) {
  const { scope, acting, detail } = props
  const { busy, outcome, run } = useAction()
  const [rewards, setRewards] = useState({ give: '', get: '', giveCurrency: '', getCurrency: '' })
  /** The switch shows what was asked for until the campaign read back says so too. */
  const [requiring, setRequiring] = useState<boolean | null>(null)
  const required = detail?.requireUserToken
  useEffect(() => {
    if (required !== undefined) setRequiring((asked) => (asked === required ? null : asked))
  }, [required])
  const [draft, setDraft] = useState({
    name: 'QA campaign',
    get: '5',
    give: '5',
    currency: 'USD',
    days: '30',
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
      {acting && (
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
      )}
      <form
        class="subform"
        aria-labelledby="create-title"
        onSubmit={(event) => {
          event.preventDefault()
          void run(async () => {
            const created = await demoApi.createCampaign(scope, {
              name: draft.name,
              rewardTrigger: 'signup',
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
            return `Created “${draft.name}” (${created.id}), ${created.status}; the widgets now use it.`
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
        <button type="submit" class="primary" disabled={busy}>
          Create campaign
        </button>
      </form>
      <Outcome outcome={outcome} testId="campaign-outcome" />
    </Group>
  )
}

// --- faults and offline --------------------------------------------------------------------

export function describeFault(fault: FaultPlan | null | undefined): string {
  if (fault === undefined) return '…'
  if (fault === null) return 'none'
  const next = `next ${fault.count} test-mode answer${fault.count === 1 ? '' : 's'}`
  if (fault.kind === 'rate-limit') return `${next}: 429, Retry-After ${fault.retryAfterSeconds} s`
  if (fault.kind === 'unavailable') return `${next}: 503`
  return `${next}: slowed by ${fault.delayMs} ms`
}

export function FaultPanel(props: { fault: FaultPlan | null | undefined; liveKey: boolean }) {
  const offline = useStore($offline)
  const { busy, outcome, run } = useAction()
  const [kind, setKind] = useState<FaultPlan['kind']>('rate-limit')
  const [count, setCount] = useState('2')
  const [retryAfter, setRetryAfter] = useState('5')
  const [delay, setDelay] = useState('3000')

  const plan = (): FaultPlan => {
    const n = Number(count)
    if (kind === 'rate-limit') return { kind, count: n, retryAfterSeconds: Number(retryAfter) }
    if (kind === 'unavailable') return { kind, count: n }
    return { kind, count: n, delayMs: Number(delay) }
  }

  return (
    <Group id="faults-title" title="Faults and offline">
      <p>
        Armed: <strong data-testid="fault-current">{describeFault(props.fault)}</strong>
      </p>
      <p class="muted small">
        For test mode only: the next N answers to a pk_test_/sk_test_ request on /v1 (campaign, link
        or events), whoever sends it. Live keys are never faulted. Arm, then act (e.g. sign the
        visitor up).
      </p>
      {props.liveKey && <p class="note">The chosen key is a live key: faults do not touch it.</p>}
      <form
        class="subform"
        aria-labelledby="fault-form-title"
        onSubmit={(event) => {
          event.preventDefault()
          void run(async () => {
            const answer = await demoApi.setFault(plan())
            // The live line above is the one count: a copy here would go stale as answers use it.
            return answer.fault
              ? 'Fault armed: the count above goes down with each faulted answer.'
              : 'No fault armed.'
          })
        }}
      >
        <h3 id="fault-form-title" class="visually-hidden">
          Arm a fault
        </h3>
        <fieldset>
          <legend>Answer with</legend>
          {(
            [
              ['rate-limit', '429 Too Many Requests'],
              ['unavailable', '503 Service Unavailable'],
              ['slow', 'Slow answers'],
            ] as const
          ).map(([value, label]) => (
            <label class="check" key={value} for={`fault-${value}`}>
              <input
                id={`fault-${value}`}
                type="radio"
                name="fault-kind"
                value={value}
                checked={kind === value}
                onChange={() => setKind(value)}
              />
              <span>{label}</span>
            </label>
          ))}
        </fieldset>
        <div class="two">
          <div class="field">
            <label for="fault-count">Next N answers</label>
            <input
              id="fault-count"
              type="number"
              min="1"
              max="100"
              value={count}
              onInput={(event) => setCount(event.currentTarget.value)}
            />
          </div>
          {kind === 'rate-limit' && (
            <div class="field">
              <label for="fault-retry-after">Retry-After (s)</label>
              <input
                id="fault-retry-after"
                type="number"
                min="1"
                max="3600"
                value={retryAfter}
                onInput={(event) => setRetryAfter(event.currentTarget.value)}
              />
            </div>
          )}
          {kind === 'slow' && (
            <div class="field">
              <label for="fault-delay">Delay (ms)</label>
              <input
                id="fault-delay"
                type="number"
                min="1"
                max="30000"
                value={delay}
                onInput={(event) => setDelay(event.currentTarget.value)}
              />
            </div>
          )}
        </div>
        <div class="buttons">
          <button type="submit" class="primary" disabled={busy}>
            Arm fault
          </button>
          <button
            type="button"
            disabled={busy || !props.fault}
            onClick={() =>
              run(async () => {
                await demoApi.clearFault()
                return 'No fault armed.'
              })
            }
          >
            Clear fault
          </button>
        </div>
      </form>
      <Outcome outcome={outcome} testId="fault-outcome" />
      <label class="check offline" for="offline-toggle">
        <input
          id="offline-toggle"
          type="checkbox"
          checked={offline}
          onChange={(event) => $offline.set(event.currentTarget.checked)}
        />
        <span>Widgets offline (simulated)</span>
      </label>
      <p class="muted small">
        Every widget here (both referrer widgets and the visitor) sees navigator.onLine = false, an{' '}
        <code>offline</code> event, and failing requests. For the browser’s own offline mode use
        DevTools → Network → Offline (this page’s live views then stop too).
      </p>
    </Group>
  )
}

// --- clock ---------------------------------------------------------------------------------

const HOUR = 3_600_000
const DAY = 24 * HOUR

export function ClockPanel(props: { now: string | undefined; window: string | undefined }) {
  const { busy, outcome, run } = useAction()
  const [days, setDays] = useState('10')
  const serviceNow = props.now ? Date.parse(props.now) : null
  const advance = (ms: number, label: string) =>
    run(async () => {
      const answer = await demoApi.advanceClock(ms)
      return `Moved forward ${label}: the service’s time is now ${answer.now}.`
    })
  return (
    <Group id="clock-title" title="Service clock">
      <p>
        <span class="mono" data-testid="clock-now">
          {props.now ?? '…'}
        </span>
        <br />
        <span class="muted small" data-testid="clock-offset">
          {serviceNow === null ? '' : offsetText(serviceNow - Date.now())}
        </span>
      </p>
      <p class="muted small">
        The service counts the attribution window with its own clock: a signup later than the window
        after the click is not attributed
        {props.window ? ` (this campaign: ${props.window})` : ''}.
      </p>
      <div class="buttons">
        <button type="button" disabled={busy} onClick={() => advance(HOUR, '1 hour')}>
          +1 hour
        </button>
        <button type="button" disabled={busy} onClick={() => advance(DAY, '1 day')}>
          +1 day
        </button>
        <button type="button" disabled={busy} onClick={() => advance(7 * DAY, '7 days')}>
          +7 days
        </button>
        <button type="button" disabled={busy} onClick={() => advance(31 * DAY, '31 days')}>
          +31 days
        </button>
      </div>
      <form
        class="inline-form"
        onSubmit={(event) => {
          event.preventDefault()
          void advance(Number(days) * DAY, `${days} days`)
        }}
      >
        <label for="clock-days">Move forward by (days)</label>
        <input
          id="clock-days"
          type="number"
          min="0"
          max="400"
          step="any"
          value={days}
          onInput={(event) => setDays(event.currentTarget.value)}
        />
        <button type="submit" disabled={busy}>
          Move
        </button>
      </form>
      <Outcome outcome={outcome} testId="clock-outcome" />
    </Group>
  )
}

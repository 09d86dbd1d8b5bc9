// The demo user's token and results. The token is minted on the server with the organization's
// secret key (as a site's backend would), kept in this page's memory only, and the summary is read
// the way a page reads it: with the public key and that token.
import { useEffect, useState } from 'preact/hooks'
import {
  type CampaignSummary,
  demoApi,
  type LinkSummary,
  type MintedToken,
  type Scope,
} from './api.ts'
import { Group, Outcome, useAction } from './control-group.tsx'
import { money } from './format.ts'

const LIFETIMES: ReadonlyArray<readonly [number, string]> = [
  [60, '1 minute'],
  [3600, '1 hour'],
  [86_400, '24 hours (the longest)'],
]

const STATUS_TEXT: Record<LinkSummary['recent'][number]['status'], string> = {
  clicked: 'clicked',
  signed_up: 'signed up',
  converted: 'signed up, reward earned',
}

export function UserTokenPanel(props: {
  scope: Scope | null
  publicKey: string
  userId: string
  campaign: CampaignSummary | undefined
  /** The token minted (or null when forgotten), for the Preact widget to identify with. */
  onToken: (token: string | null) => void
}) {
  const { scope, publicKey, userId, campaign, onToken } = props
  const { busy, outcome, run } = useAction()
  const [lifetime, setLifetime] = useState(3600)
  const [minted, setMinted] = useState<MintedToken | null>(null)
  const [summary, setSummary] = useState<LinkSummary | null>(null)
  const scopeKey = scope ? `${scope.org}/${scope.mode}` : ''
  // A token belongs to one user, organization and mode: another choice forgets it.
  useEffect(() => {
    setMinted(null)
    setSummary(null)
  }, [scopeKey, userId])
  useEffect(() => onToken(minted?.token ?? null), [minted, onToken])
  useEffect(() => setSummary(null), [campaign?.id])

  if (!scope || !userId) {
    return (
      <Group id="user-token-title" title="User token and summary">
        <p class="muted">Pick a pk_ key and a user id to mint a user token.</p>
      </Group>
    )
  }

  const mint = () =>
    run(async () => {
      const token = await demoApi.mintUserToken(scope, userId, lifetime)
      setMinted(token)
      return `Minted a token for ${token.userId}, valid until ${token.expiresAt} (service clock).`
    })
  const showSummary = () =>
    run(async () => {
      if (!minted) throw new Error('Mint a token first.')
      if (!campaign) throw new Error('No campaign to read results of.')
      setSummary(await demoApi.referrerSummary(publicKey, campaign.id, userId, minted.token))
      return `Results of ${userId} in “${campaign.name}”, read with ${publicKey} and the token.`
    })

  return (
    <Group id="user-token-title" title="User token and summary">
      <p class="muted small">
        Minted on the server with the secret key (<code>signUserToken</code>); this page holds the
        token in memory only and hands it to the Preact widget (its <code>userToken</code> prop),
        which then shows the user's results under the link. The script-tag frame does not get it: a
        token never goes into a URL.
      </p>
      <div class="field">
        <label for="token-lifetime">Lifetime</label>
        <select
          id="token-lifetime"
          value={String(lifetime)}
          onChange={(event) => setLifetime(Number(event.currentTarget.value))}
        >
          {LIFETIMES.map(([seconds, label]) => (
            <option key={seconds} value={String(seconds)}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <div class="buttons">
        <button type="button" disabled={busy} onClick={mint}>
          Mint a token for {userId}
        </button>
        <button type="button" disabled={busy || !minted || !campaign} onClick={showSummary}>
          {summary ? 'Refresh summary' : 'Show summary'}
        </button>
      </div>
      {minted && (
        <p class="small" data-testid="user-token">
          Token <code class="mono">{minted.token.slice(0, 16)}…</code> for {minted.userId}, until{' '}
          <span class="mono">{minted.expiresAt}</span>
        </p>
      )}
      {summary && (
        <div data-testid="summary-view">
          <dl class="stats">
            <div>
              <dt>Clicks</dt>
              <dd data-testid="summary-clicks">{summary.clicks}</dd>
            </div>
            <div>
              <dt>Friends joined</dt>
              <dd data-testid="summary-signups">{summary.signups}</dd>
            </div>
            <div>
              <dt>Conversions</dt>
              <dd data-testid="summary-conversions">{summary.conversions}</dd>
            </div>
            <div>
              <dt>Earned</dt>
              <dd data-testid="summary-earned">
                {money(summary.rewardsEarned.amount, summary.rewardsEarned.currency)}
              </dd>
            </div>
          </dl>
          {summary.recent.length > 0 ? (
            <ol class="small" aria-label="Recent referrals">
              {summary.recent.map((entry) => (
                <li key={`${entry.at}-${entry.status}`} data-testid="summary-recent">
                  <span class="mono">{entry.at.slice(0, 19)}</span> {STATUS_TEXT[entry.status]}
                </li>
              ))}
            </ol>
          ) : (
            <p class="muted small">No referrals yet.</p>
          )}
        </div>
      )}
      <Outcome outcome={outcome} testId="user-token-outcome" />
    </Group>
  )
}

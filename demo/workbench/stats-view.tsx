// The acting campaign's stats, as the service counts them: clicks, conversions and rewards,
// the self-referrals it refused, the friend's promotion code, and what issues the rewards.
// Refreshed by itself.
import type { Campaign } from './api.ts'
import { money, rewardsOn } from './format.ts'

export function StatsView(props: {
  campaign: Campaign | undefined
  error: string | null
  note: string
}) {
  const { campaign } = props
  return (
    <section class="card view" aria-labelledby="stats-title" data-testid="stats-view">
      <h2 id="stats-title">Campaign stats</h2>
      {campaign ? (
        <>
          <p class="lead">
            <strong>{campaign.name}</strong>{' '}
            <span class={`badge status-${campaign.status}`} data-testid="stat-status">
              {campaign.status}
            </span>
          </p>
          <p class="muted mono">{campaign.id}</p>
          <dl class="stats">
            <div>
              <dt>Clicks</dt>
              <dd data-testid="stat-clicks">{campaign.stats.totalClicks}</dd>
            </div>
            <div>
              <dt>Conversions</dt>
              <dd data-testid="stat-conversions">{campaign.stats.totalConversions}</dd>
            </div>
            <div>
              <dt>Rewards issued</dt>
              <dd data-testid="stat-rewards">{campaign.stats.totalRewardsIssued}</dd>
            </div>
          </dl>
          <p class="muted" data-testid="stat-self-referrals">
            Self-referrals refused: <strong>{campaign.stats.selfReferrals}</strong> (the referrer’s
            own clicks, sign-ups and purchases, which earn nothing)
          </p>
          <p class="muted">
            Referrer gets {money(campaign.referrerReward.amount, campaign.referrerReward.currency)},
            friend gets {money(campaign.referredReward.amount, campaign.referredReward.currency)}
            {campaign.referredReward.promotionCode && (
              <>
                {' '}
                with code{' '}
                <span class="mono" data-testid="stat-promotion-code">
                  {campaign.referredReward.promotionCode}
                </span>
              </>
            )}{' '}
            · <span data-testid="stat-trigger">{rewardsOn(campaign.rewardTrigger)}</span> ·
            attribution window {campaign.attributionWindow}
          </p>
        </>
      ) : (
        <p class="muted">{props.note}</p>
      )}
      {props.error && <p class="error">{props.error}</p>}
    </section>
  )
}

// @vitest-environment happy-dom
// The workbench's controls for rewards on purchase, rendered alone with their service calls
// stubbed: the trigger switch (what it shows while asked, and after the service answers or
// refuses) and the purchase form (its defaults, and each verdict or failure in its status line).
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact'
import { useState } from 'preact/hooks'
import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  type Campaign,
  DemoApiError,
  type demoApi,
  type Purchase,
  type PurchaseVerdict,
  type RewardTrigger,
  type Scope,
} from './api.ts'
import { useAction } from './control-group.tsx'
import { PurchaseForm } from './purchase-form.tsx'
import { TriggerSwitch } from './trigger-switch.tsx'

const SCOPE: Scope = { org: 'acme', mode: 'test' }

afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
})

const campaign = (rewardTrigger: RewardTrigger): Campaign => ({
  id: 'camp_acmeFriendsAndFamily',
  name: 'Acme friends & family',
  description: '',
  status: 'active',
  rewardTrigger,
  referrerReward: { type: 'credit', amount: 10, currency: 'USD' },
  referredReward: { type: 'credit', amount: 10, currency: 'USD' },
  limits: { maxReferralsPerUser: null, maxReferralsPerDay: null },
  attributionWindow: '30d',
  requireUserToken: false,
  stats: {
    totalClicks: 0,
    totalConversions: 0,
    totalRewardsIssued: 0,
    selfReferrals: 0,
    reversedConversions: 0,
  },
  createdAt: '2026-01-15T12:00:00.000Z',
  updatedAt: '2026-01-15T12:00:00.000Z',
})

/** The switch inside a panel of its own: the campaign it reads back is `readBack`. */
function Panel(props: { readBack: RewardTrigger; setTrigger: typeof demoApi.setTrigger }) {
  const { busy, outcome, run } = useAction()
  const [changed, setChanged] = useState(0)
  return (
    <>
      <TriggerSwitch
        scope={SCOPE}
        campaign={campaign(props.readBack)}
        busy={busy}
        run={run}
        changed={() => setChanged((n) => n + 1)}
        setTrigger={props.setTrigger}
      />
      <p data-testid="outcome">{outcome?.text}</p>
      <p data-testid="changed">{changed}</p>
    </>
  )
}

const radio = (name: string) => screen.getByLabelText(name) as HTMLInputElement

describe('TriggerSwitch', () => {
  it('asks for the other trigger through the demo control, and says what it means', async () => {
    const setTrigger = vi.fn(async (_scope: Scope, id: string, rewardTrigger: RewardTrigger) => ({
      id,
      rewardTrigger,
      updatedAt: '2026-01-15T12:00:01.000Z',
    }))
    render(<Panel readBack="signup" setTrigger={setTrigger} />)
    expect(radio('sign-up').checked).toBe(true)
    fireEvent.click(radio('first purchase'))
    await waitFor(() => expect(screen.getByTestId('changed').textContent).toBe('1'))
    expect(setTrigger).toHaveBeenCalledWith(SCOPE, 'camp_acmeFriendsAndFamily', 'purchase')
    expect(screen.getByTestId('outcome').textContent).toMatch(
      /^“Acme friends & family” now rewards the friend’s first purchase/,
    )
    // What was asked for shows until the campaign read back says so too.
    expect(radio('first purchase').checked).toBe(true)
  })

  it('goes back to what the campaign says when the service refuses', async () => {
    const setTrigger = vi.fn(async (): ReturnType<typeof demoApi.setTrigger> => {
      throw new DemoApiError('404 resource_missing: No such campaign.', 404)
    })
    render(<Panel readBack="signup" setTrigger={setTrigger} />)
    fireEvent.click(radio('first purchase'))
    await waitFor(() =>
      expect(screen.getByTestId('outcome').textContent).toBe(
        '404 resource_missing: No such campaign.',
      ),
    )
    expect(radio('sign-up').checked).toBe(true)
    expect(screen.getByTestId('changed').textContent).toBe('0')
  })
})

describe('PurchaseForm', () => {
  const verdict = (status: PurchaseVerdict['status'], orderId: string): PurchaseVerdict => ({
    status,
    eventId: 'pu_event',
    orderId,
  })
  const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement
  const outcome = () => screen.getByTestId('purchase-outcome')

  it('buys as the user the visitor signed up as, in the campaign’s currency', async () => {
    const record = vi.fn(async (_scope: Scope, purchase: Purchase) =>
      verdict('accepted', purchase.orderId),
    )
    const { rerender } = render(
      <PurchaseForm scope={SCOPE} buyer={null} currency="EUR" record={record} />,
    )
    expect(field('Buyer (user id)').value).toBe('')
    expect(field('Order id').value).toMatch(/^order_[a-z0-9]{6}$/)
    expect(field('Amount').value).toBe('49.90')
    expect(field('Currency').value).toBe('EUR')
    rerender(<PurchaseForm scope={SCOPE} buyer="friend_1" currency="EUR" record={record} />)
    expect(field('Buyer (user id)').value).toBe('friend_1')

    const orderId = field('Order id').value
    fireEvent.click(screen.getByRole('button', { name: 'Record purchase' }))
    await waitFor(() => expect(outcome().getAttribute('data-status')).toBe('accepted'))
    expect(record).toHaveBeenCalledWith(SCOPE, {
      userId: 'friend_1',
      orderId,
      amount: 49.9,
      currency: 'EUR',
    })
    expect(outcome().textContent).toBe(
      `accepted: order ${orderId} of friend_1, €49.90 (event pu_event).`,
    )
  })

  it('keeps the order id for a repeat (duplicate), and makes a new one when asked', async () => {
    const seen = new Set<string>()
    const record = vi.fn(async (_scope: Scope, purchase: Purchase) => {
      const repeat = seen.has(purchase.orderId)
      seen.add(purchase.orderId)
      return verdict(repeat ? 'duplicate' : 'accepted', purchase.orderId)
    })
    render(<PurchaseForm scope={SCOPE} buyer="friend_1" currency="USD" record={record} />)
    const button = screen.getByRole('button', { name: 'Record purchase' })
    const first = field('Order id').value
    fireEvent.click(button)
    await waitFor(() => expect(outcome().getAttribute('data-status')).toBe('accepted'))
    fireEvent.click(button)
    await waitFor(() => expect(outcome().getAttribute('data-status')).toBe('duplicate'))
    expect(outcome().textContent).toBe(
      `duplicate: order ${first} was recorded already; nothing changed.`,
    )
    fireEvent.click(screen.getByRole('button', { name: 'New order id' }))
    expect(field('Order id').value).not.toBe(first)
    fireEvent.click(button)
    await waitFor(() => expect(outcome().getAttribute('data-status')).toBe('accepted'))
  })

  it.each([
    [
      'rejected',
      async () => ({
        ...verdict('rejected', 'order_1'),
        error: { code: 'campaign_not_active', message: 'Not now.' },
      }),
      'rejected: campaign_not_active: Not now.',
    ],
    [
      'error',
      async () => {
        throw new DemoApiError(
          '502 record_purchase_unsupported: [referral] the service does not take purchases.',
          502,
        )
      },
      '502 record_purchase_unsupported: [referral] the service does not take purchases.',
    ],
  ] as const)('shows a %s answer as it came, marked as a failure', async (status, record, text) => {
    render(<PurchaseForm scope={SCOPE} buyer="friend_1" currency="USD" record={record} />)
    fireEvent.click(screen.getByRole('button', { name: 'Record purchase' }))
    await waitFor(() => expect(outcome().getAttribute('data-status')).toBe(status))
    expect(outcome().textContent).toBe(text)
    expect(outcome().className).toBe('outcome error')
  })
})

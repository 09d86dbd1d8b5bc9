// A purchase by the visitor, recorded as the shop's backend records one: the dev server calls
// recordPurchase of referral-widget/server with the organization's secret key (this page never
// holds it). The verdict shows as the service gave it: accepted, duplicate (the order id is the
// idempotency key) or rejected; no verdict at all (an unsupported service, a timeout) as an error.
import { useEffect, useState } from 'preact/hooks'
import { demoApi, type Scope } from './api.ts'
import { errorText } from './format.ts'
import { refreshAll } from './hub.ts'
import {
  DEFAULT_AMOUNT,
  newOrderId,
  type PurchaseDraft,
  purchaseOf,
  verdictText,
} from './purchase.ts'

interface Outcome {
  /** accepted, duplicate, rejected, or error when no verdict came. */
  status: string
  text: string
}

export function PurchaseForm(props: {
  scope: Scope
  /** The user the visitor last signed up as: the buyer, unless QA names another. */
  buyer: string | null
  /** The campaign's currency, the amount's default one. */
  currency: string | undefined
  record?: typeof demoApi.recordPurchase
}) {
  const { scope, record = demoApi.recordPurchase } = props
  const [draft, setDraft] = useState<PurchaseDraft>(() => ({
    userId: props.buyer ?? '',
    orderId: newOrderId(),
    amount: DEFAULT_AMOUNT,
    currency: props.currency ?? 'USD',
  }))
  const [busy, setBusy] = useState(false)
  const [outcome, setOutcome] = useState<Outcome | null>(null)
  const edit = (change: Partial<PurchaseDraft>) => setDraft((before) => ({ ...before, ...change }))
  useEffect(() => {
    if (props.buyer) edit({ userId: props.buyer })
  }, [props.buyer])
  useEffect(() => {
    if (props.currency) edit({ currency: props.currency })
  }, [props.currency])

  const submit = async (event: Event) => {
    event.preventDefault()
    const purchase = purchaseOf(draft)
    setBusy(true)
    try {
      const verdict = await record(scope, purchase)
      setOutcome({ status: verdict.status, text: verdictText(verdict, purchase) })
    } catch (failure) {
      setOutcome({ status: 'error', text: errorText(failure) })
    } finally {
      setBusy(false)
      refreshAll()
    }
  }

  return (
    <form class="subform" aria-labelledby="purchase-title" onSubmit={submit}>
      <h3 id="purchase-title">Record a purchase (the shop’s server)</h3>
      <p class="muted small">
        The dev server calls <code>recordPurchase</code> of <code>referral-widget/server</code> with
        the organization’s secret key (<code>sk_{scope.mode}_…</code>), which this page never holds.
        In a first-purchase campaign the referred friend’s first order is the conversion; later
        orders issue nothing.
      </p>
      <div class="purchase-fields">
        <div class="field">
          <label for="purchase-user">Buyer (user id)</label>
          <input
            id="purchase-user"
            class="mono"
            value={draft.userId}
            placeholder="Sign the visitor up first"
            onInput={(event) => edit({ userId: event.currentTarget.value })}
          />
        </div>
        <div class="field">
          <label for="purchase-order">Order id</label>
          <input
            id="purchase-order"
            class="mono"
            value={draft.orderId}
            onInput={(event) => edit({ orderId: event.currentTarget.value })}
          />
        </div>
        <div class="field">
          <label for="purchase-amount">Amount</label>
          <input
            id="purchase-amount"
            type="number"
            step="any"
            value={draft.amount}
            onInput={(event) => edit({ amount: event.currentTarget.value })}
          />
        </div>
        <div class="field">
          <label for="purchase-currency">Currency</label>
          <input
            id="purchase-currency"
            class="mono"
            maxLength={3}
            value={draft.currency}
            onInput={(event) => edit({ currency: event.currentTarget.value.toUpperCase() })}
          />
        </div>
      </div>
      <div class="buttons">
        <button type="submit" class="primary" disabled={busy}>
          Record purchase
        </button>
        <button type="button" disabled={busy} onClick={() => edit({ orderId: newOrderId() })}>
          New order id
        </button>
      </div>
      <p
        class={
          outcome?.status === 'error' || outcome?.status === 'rejected'
            ? 'outcome error'
            : 'outcome'
        }
        role="status"
        data-testid="purchase-outcome"
        data-status={outcome?.status}
      >
        {outcome?.text ?? ''}
      </p>
    </form>
  )
}

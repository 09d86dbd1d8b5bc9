import { RecordPurchaseError, recordPurchase } from 'referral-widget/server'

// Call it when an order is paid (a payment webhook, say): in a campaign whose rewardTrigger is
// "purchase", the referred customer's first paid order issues both rewards.
export async function orderPaid(order: {
  id: string
  userId: string
  total: number
  currency: string
}) {
  try {
    const result = await recordPurchase({
      secretKey: process.env.REFERRAL_SECRET_KEY ?? '', // sk_live_…: never in a page
      apiBase: 'https://referrals.example.net',
      userId: order.userId, // the id the sign-up was recorded with
      orderId: order.id, //    a second call with the same order answers 'duplicate'
      amount: order.total,
      currency: order.currency, // ISO 4217: 'EUR'
    })
    if (result.status === 'rejected') console.warn(result.error.message)
  } catch (error) {
    if (!(error instanceof RecordPurchaseError)) throw error // a ServerConfigError: fix the call
    // Not reached in time: fail the webhook, so the payment provider sends it again (the order id
    // makes the retry safe). Refused (a bad or rolled key, a wrong apiBase) or unsupported (a
    // service without purchases): no retry helps; say so where someone will see it.
    if (error.reason === 'timeout') throw error
    console.error(`Referral purchase not recorded (${error.reason}): ${error.message}`)
  }
}

import { ReferralBanner, ReferralWidget } from 'referral-widget/react'

export function Account({ user }: { user: { id: string } }) {
  return <ReferralWidget publicKey="pk_test_acme" apiBase="https://YOUR-SERVICE" userId={user.id} />
}
export function Landing() {
  return <ReferralBanner publicKey="pk_test_acme" apiBase="https://YOUR-SERVICE" />
}

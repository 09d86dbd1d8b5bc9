// app/page.tsx: a Server Component may render the widget as it is. referral-widget/react is a
// client module, so the server sends an empty element and the panel mounts after hydration.
import { ReferralWidget } from 'referral-widget/react'

export default function Page() {
  const userId = 'user_123' // the signed-in user, e.g. from your session
  return <ReferralWidget publicKey="pk_test_acme" apiBase="https://YOUR-SERVICE" userId={userId} />
}

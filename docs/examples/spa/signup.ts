// In a single-page app, the page records the sign-up: create the core when the app starts (that
// captures the code of a visitor arriving through a link), and track the sign-up once your API
// has created the account. The event is stored before it is sent, and retried until the service
// takes it, so the app may move on at once. (Where your server records it, leave this out.)
import { createReferral } from 'referral-widget/core'

const referral = createReferral({ publicKey: 'pk_test_acme', apiBase: 'https://YOUR-SERVICE' })

export async function signUp(email: string, password: string): Promise<{ id: string }> {
  const response = await fetch('/api/users', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password }),
  })
  if (!response.ok) throw new Error(`Sign-up failed: ${response.status}`)
  const user = (await response.json()) as { id: string }
  referral.track('signup', { userId: user.id })
  return user
}

import {
  parseAttribution,
  RecordSignupError,
  readAttribution,
  recordSignup,
} from 'referral-widget/server'
import { createUser } from './users' // your sign-up

export async function POST(request: Request) {
  const form = await request.formData()
  const user = await createUser(form)
  const attribution =
    readAttribution(request.headers.get('cookie')) ?? // the cookie, on sites that set cookieDomain
    parseAttribution(form.get('referral')) //            the hidden field, on sites that don't
  try {
    const result = await recordSignup({
      secretKey: process.env.REFERRAL_SECRET_KEY ?? '', // sk_live_…: never in a page
      apiBase: 'https://referrals.example.net',
      userId: user.id,
      attribution,
    })
    if (result.status === 'rejected') console.warn('[referral] sign-up not recorded:', result.error)
  } catch (error) {
    if (!(error instanceof RecordSignupError)) throw error // ServerConfigError: fix the call
    // No answer within 10 s (error.reason "timeout"), or the request was refused ("refused",
    // e.g. 401 for a wrong key). The user is signed up all the same; retry later from a job:
    // the event id comes from the user id, so the service counts the sign-up once.
  }
  return Response.redirect(new URL('/welcome', request.url), 303)
}

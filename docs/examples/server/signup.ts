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
    parseAttribution(form.get('referral')) //            the page's hidden field, elsewhere
  try {
    await recordSignup({
      secretKey: process.env.REFERRAL_SECRET_KEY ?? '', // sk_live_…: never in a page
      apiBase: 'https://referrals.example.net',
      userId: user.id,
      attribution,
    })
  } catch (error) {
    if (!(error instanceof RecordSignupError)) throw error // a ServerConfigError: fix the call
    // The user is signed up all the same. Not reached in 10 s ('timeout'): record it again later
    // (the event id comes from the user id, so it counts once). Refused (a bad or rolled key, a
    // wrong apiBase): no retry helps; say so where someone will see it.
    console.error(`Referral sign-up not recorded (${error.reason}): ${error.message}`)
  }
  return Response.redirect(new URL('/welcome', request.url), 303)
}

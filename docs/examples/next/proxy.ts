import { type NextRequest, NextResponse } from 'next/server'
import { keepAttribution } from 'referral-widget/server'

// proxy.ts (middleware.ts before Next.js 16), beside app/: every page's response keeps the
// referral in the server's own cookie.
export function proxy(request: NextRequest) {
  const response = NextResponse.next()
  const cookie = keepAttribution(request.headers.get('cookie'), {
    secure: request.nextUrl.protocol === 'https:',
  })
  if (cookie !== null) response.headers.append('Set-Cookie', cookie)
  return response
}

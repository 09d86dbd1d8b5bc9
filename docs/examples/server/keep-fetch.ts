import { keepAttribution } from 'referral-widget/server'

/** A site's fetch handler (Deno, Bun, Cloudflare Workers, React Router…), every response keeping the referral. */
export function keepingReferrals(handler: (request: Request) => Promise<Response>) {
  return async (request: Request): Promise<Response> => {
    const response = await handler(request)
    const cookie = keepAttribution(request.headers.get('cookie'), {
      secure: new URL(request.url).protocol === 'https:',
    })
    if (cookie === null) return response
    const kept = new Response(response.body, response) // a redirect's own headers cannot change
    kept.headers.append('Set-Cookie', cookie)
    return kept
  }
}

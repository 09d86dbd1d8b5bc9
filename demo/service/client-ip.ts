// Whose address a request comes from, for the per-client rate limit: the TCP peer's, unless the
// peer is a proxy we were told to believe, whose forwarding headers then name the client.
import type { AppEnv } from './http.ts'

interface RequestSource {
  env: AppEnv['Bindings'] | undefined
  req: { header(name: string): string | undefined }
}

export function clientIpOf(trustedProxies: ReadonlySet<string>) {
  return (c: RequestSource): string => {
    const peer = c.env?.incoming?.socket?.remoteAddress ?? 'unknown'
    if (!trustedProxies.has(peer)) return peer
    const forwarded = forwardedFor(c.req.header('x-forwarded-for'), c.req.header('forwarded'))
    // The nearest address that is not one of our proxies is the client.
    for (let i = forwarded.length - 1; i >= 0; i--) {
      const hop = forwarded[i]
      if (hop && !trustedProxies.has(hop)) return hop
    }
    return peer
  }
}

/** The hops a proxy reports, oldest first: X-Forwarded-For, else the `for=` of Forwarded. */
function forwardedFor(xForwardedFor: string | undefined, forwarded: string | undefined): string[] {
  if (xForwardedFor) return xForwardedFor.split(',').map((part) => part.trim())
  if (!forwarded) return []
  return forwarded.split(',').map((element) => {
    const pair = element.split(';').find((part) => /^\s*for=/i.test(part))
    // for=192.0.2.60, for="[2001:db8::1]:4711" (quotes, brackets and a port are not the address)
    const value =
      pair
        ?.replace(/^\s*for=/i, '')
        .trim()
        .replace(/^"|"$/g, '') ?? ''
    const bracketed = /^\[([^\]]+)\]/.exec(value)
    return bracketed?.[1] ?? value.replace(/:\d+$/, '')
  })
}

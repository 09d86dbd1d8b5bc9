// How WebKit reaches the site's other host names (SITE_HOSTS): WebKitGTK has no host resolver
// rules to set, so its WebDriver session goes through this HTTP proxy on loopback (the `proxy`
// capability), which sends every request to 127.0.0.1 on the port its address names, with the
// Host header as the page sent it. Plain HTTP only, as the suite's servers are. A server that
// drops the connection (the harness's `unreachable`) drops the page's too: a network error, as
// without the proxy, never an answer the server did not give.
import { createServer, request } from 'node:http'
import type { AddressInfo } from 'node:net'

export async function startSiteProxy(): Promise<{ address: string; close(): void }> {
  const proxy = createServer((incoming, answer) => {
    let target: URL
    try {
      target = new URL(incoming.url ?? '')
    } catch {
      answer.writeHead(400).end()
      return
    }
    const forwarded = request(
      {
        host: '127.0.0.1',
        port: target.port || 80,
        path: `${target.pathname}${target.search}`,
        method: incoming.method,
        headers: incoming.headers,
      },
      (upstream) => {
        answer.writeHead(upstream.statusCode ?? 502, upstream.headers)
        upstream.on('error', () => answer.destroy())
        upstream.pipe(answer)
      },
    )
    forwarded.on('error', () => answer.destroy())
    incoming.pipe(forwarded)
  })
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
  const { port } = proxy.address() as AddressInfo
  return {
    address: `127.0.0.1:${port}`,
    close: () => {
      proxy.closeAllConnections()
      proxy.close()
    },
  }
}

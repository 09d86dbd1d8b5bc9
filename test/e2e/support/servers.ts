// Two origins on loopback, as on a real site: the service's (the referral API and the built
// script files) and the host page's. CORS and preflights between them are real.
import { readFile } from 'node:fs/promises'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { getRequestListener } from '@hono/node-server'
import { createService, type ServiceOptions } from '../../../demo/service/app.ts'
import { isScriptFile, SHORT } from '../../../demo/service/scripts.ts'

const DIST = join(import.meta.dirname, '../../../dist')

export interface Origin {
  url: string
  server: Server
  /** Every request this origin received, in order. */
  requests: Array<{ method: string; path: string }>
  close(): Promise<void>
}

async function listen(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  host = '127.0.0.1',
): Promise<Omit<Origin, 'requests'> & { requests: Origin['requests'] }> {
  const requests: Origin['requests'] = []
  const server = createServer((req, res) => {
    requests.push({ method: req.method ?? 'GET', path: req.url ?? '/' })
    handler(req, res)
  })
  await new Promise<void>((resolve) => server.listen(0, host, resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://${host}:${port}`,
    server,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** Sees each request to the service first; true when it answered it (or dropped it) itself. */
export type Interceptor = (req: IncomingMessage, res: ServerResponse) => boolean

/**
 * The referral service, also serving dist/ (the script tag and its UI chunk), `no-store` unless
 * `cachedScripts`: then cached as the service's own script route serves them (five minutes).
 */
export async function startServiceOrigin(
  options: ServiceOptions & { intercept?: Interceptor; cachedScripts?: boolean } = {},
) {
  const { intercept, cachedScripts, ...serviceOptions } = options
  const service = createService({ controls: true, log: () => {}, ...serviceOptions })
  const api = getRequestListener(service.app.fetch, { overrideGlobalObjects: false })
  const origin = await listen((req, res) => {
    if (intercept?.(req, res)) return
    const path = (req.url ?? '/').split('?')[0] ?? '/'
    if (isScriptFile(path.slice(1))) {
      readFile(join(DIST, path))
        .then((body) => {
          res.writeHead(200, {
            'Content-Type': 'text/javascript; charset=utf-8',
            'Cache-Control': cachedScripts ? SHORT : 'no-store',
            // As a CDN does: lets a page load it with integrity="…" crossorigin="anonymous".
            'Access-Control-Allow-Origin': '*',
          })
          res.end(body)
        })
        .catch(() => {
          res.writeHead(404)
          res.end()
        })
      return
    }
    void api(req, res)
  }, 'localhost')
  return { ...origin, service }
}

export interface HostPage {
  html: string
  /** Default text/html. */
  type?: string
  /** A Content-Security-Policy header for this page. */
  csp?: string
  /** Served without no-store, so the browser may keep it in the back/forward cache. */
  cacheable?: boolean
}

/** The host site: pages registered by path. */
export async function startHostOrigin() {
  const pages = new Map<string, HostPage>()
  const origin = await listen((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/'
    const page = pages.get(path)
    if (!page) {
      res.writeHead(404, { 'Content-Type': 'text/plain' })
      res.end('no such page')
      return
    }
    res.writeHead(200, {
      'Content-Type': page.type ?? 'text/html; charset=utf-8',
      // A page that may be kept in the back/forward cache is not no-store (Chromium keeps none that is).
      'Cache-Control': page.cacheable ? 'no-cache' : 'no-store',
      ...(page.csp ? { 'Content-Security-Policy': page.csp } : {}),
    })
    res.end(page.html)
  })
  return {
    ...origin,
    page(path: string, page: HostPage) {
      pages.set(path, page)
      return `${origin.url}${path}`
    },
  }
}

/**
 * A site that serves the referral service and the script files itself, under `/referral` (the
 * local service mounted with `basePath` and `scripts`), beside its own pages.
 */
export async function startFirstPartyOrigin(version: string) {
  const service = createService({
    controls: true,
    log: () => {},
    basePath: '/referral',
    scripts: { dir: DIST, version },
  })
  const api = getRequestListener(service.app.fetch, { overrideGlobalObjects: false })
  const pages = new Map<string, string>()
  const origin = await listen((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/'
    if (path.startsWith('/referral/')) {
      void api(req, res)
      return
    }
    const html = pages.get(path)
    res.writeHead(html === undefined ? 404 : 200, {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
    })
    res.end(html ?? 'no such page')
  })
  return {
    ...origin,
    service,
    page(path: string, html: string) {
      pages.set(path, html)
      return `${origin.url}${path}`
    },
  }
}

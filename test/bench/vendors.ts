// The vendors' origin: analytics-next and posthog-js served from their npm packages, and their
// APIs answered, on a loopback origin that stands in for their CDNs and ingestion hosts.
import { existsSync, readFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { basename, join } from 'node:path'
import { ANALYTICS_DIST, POSTHOG_DIST, POSTHOG_TOKEN, SEGMENT_WRITE_KEY } from './common.ts'

interface LoggedRequest {
  method: string
  path: string
}

/**
 * Stands in for cdn.segment.com + api.segment.io and for PostHog's assets and ingestion hosts:
 * serves the npm packages' browser bundles (no-store, as the service serves ours) and answers
 * their API calls with minimal success bodies. CORS is open, as on the real hosts.
 */
export async function startVendorOrigin() {
  const requests: LoggedRequest[] = []
  let url = ''
  const settings = () => ({
    integrations: {
      'Segment.io': {
        apiKey: SEGMENT_WRITE_KEY,
        apiHost: `${new URL(url).host}/v1`,
        protocol: 'http',
        unbundledIntegrations: [],
        addBundledMetadata: true,
        maybeBundledConfigIds: {},
        versionSettings: { version: '4.4.7', componentTypes: ['browser'] },
      },
    },
    plan: { track: { __default: { enabled: true, integrations: {} } } },
    edgeFunction: {},
    analyticsNextEnabled: true,
    middlewareSettings: {},
    enabledMiddleware: {},
    metrics: { sampleRate: 0 },
    legacyVideoPluginsEnabled: false,
    remotePlugins: [],
  })
  const remoteConfig = {
    token: POSTHOG_TOKEN,
    supportedCompression: ['gzip', 'gzip-js'],
    hasFeatureFlags: false,
    captureDeadClicks: false,
    capturePerformance: false,
    autocapture_opt_out: false,
    autocaptureExceptions: false,
    analytics: { endpoint: '/i/v0/e/' },
    elementsChainAsString: true,
    sessionRecording: false,
    heatmaps: false,
    surveys: false,
    defaultIdentifiedOnly: true,
    siteApps: [],
  }

  const send = (
    req: IncomingMessage,
    res: ServerResponse,
    status: number,
    type: string,
    body: string | Buffer,
  ) => {
    res.writeHead(status, {
      'Content-Type': type,
      'Cache-Control': 'no-store',
      'Access-Control-Allow-Origin': req.headers.origin ?? '*',
      'Access-Control-Allow-Credentials': 'true',
      Vary: 'Origin',
    })
    res.end(body)
  }
  const sendFile = (req: IncomingMessage, res: ServerResponse, file: string) => {
    if (!existsSync(file)) return send(req, res, 404, 'text/plain', 'not found')
    send(req, res, 200, 'text/javascript; charset=utf-8', readFileSync(file))
  }

  const server = createServer((req, res) => {
    const method = req.method ?? 'GET'
    const path = (req.url ?? '/').split('?')[0] ?? '/'
    requests.push({ method, path: req.url ?? '/' })
    req.resume()
    if (method === 'OPTIONS') {
      res.writeHead(204, {
        'Access-Control-Allow-Origin': req.headers.origin ?? '*',
        'Access-Control-Allow-Credentials': 'true',
        'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
        'Access-Control-Allow-Headers': req.headers['access-control-request-headers'] ?? '*',
        'Access-Control-Max-Age': '86400',
        Vary: 'Origin',
      })
      res.end()
      return
    }
    const file = vendorFile(path)
    if (file) return sendFile(req, res, file)
    if (path === `/v1/projects/${SEGMENT_WRITE_KEY}/settings`) {
      return send(req, res, 200, 'application/json', JSON.stringify(settings()))
    }
    if (path === `/array/${POSTHOG_TOKEN}/config.js`) {
      const script = `(window._POSTHOG_REMOTE_CONFIG=window._POSTHOG_REMOTE_CONFIG||{})[${JSON.stringify(POSTHOG_TOKEN)}]={config:${JSON.stringify(remoteConfig)},siteApps:[]}`
      return send(req, res, 200, 'text/javascript; charset=utf-8', script)
    }
    if (path === `/array/${POSTHOG_TOKEN}/config`) {
      return send(req, res, 200, 'application/json', JSON.stringify(remoteConfig))
    }
    if (path.startsWith('/flags')) {
      return send(
        req,
        res,
        200,
        'application/json',
        JSON.stringify({ flags: {}, errorsWhileComputingFlags: false, requestId: 'bench' }),
      )
    }
    if (method === 'POST' && path.startsWith('/v1/')) {
      return send(req, res, 200, 'application/json', '{"success":true}')
    }
    if (method === 'POST') return send(req, res, 200, 'application/json', '{"status":1}')
    send(req, res, 404, 'text/plain', 'not found')
  })
  await new Promise<void>((resolve) => server.listen(0, 'localhost', resolve))
  url = `http://localhost:${(server.address() as AddressInfo).port}`
  return {
    url,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** The package file a vendor-origin path serves, if it is one of the bundles. */
export function vendorFile(path: string): string | undefined {
  if (path === `/analytics.js/v1/${SEGMENT_WRITE_KEY}/analytics.min.js`) {
    return join(ANALYTICS_DIST, 'standalone.js')
  }
  if (path.startsWith('/analytics-next/bundles/') && path.endsWith('.js')) {
    return join(ANALYTICS_DIST, basename(path))
  }
  if (path.startsWith('/static/') && path.endsWith('.js')) return join(POSTHOG_DIST, basename(path))
  return undefined
}

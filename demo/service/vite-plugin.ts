// Mounts the local referral service into the Vite dev server, so `npm start` serves the demo
// page and the API on one origin. It also serves the built script tag (dist/referral-widget.js
// and its UI chunk, built by `npm start` before Vite starts) and opens a second origin on the
// next port: the demo's simulated visitor runs there, with a localStorage of its own, on the
// shop's pages under one host name and on the app's under the other (localhost, 127.0.0.1).
import { readFile } from 'node:fs/promises'
import { createServer, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { getRequestListener } from '@hono/node-server'
import type { Logger, Plugin } from 'vite'
import { messageOf } from '../../src/shared/errors.ts'
import { createService, type ServiceOptions } from './app.ts'
import { isScriptFile } from './scripts.ts'

const SERVICE_PATHS = /^\/(v1|demo-api)(\/|$|\?)/
/** The script-tag file a request asks for at the root (`/referral-widget-ui.js?…`), if any. */
const scriptFileOf = (url: string | undefined) => {
  const name = url?.split('?')[0]?.slice(1)
  return name !== undefined && isScriptFile(name) ? name : undefined
}
const DIST = fileURLToPath(new URL('../../dist/', import.meta.url))

/** What the demo page learns about its two origins (a <meta> in every page Vite serves). */
export const ORIGINS_META = 'referral-demo-origins'

async function serveBuilt(file: string, res: ServerResponse, logger: Logger) {
  try {
    const body = await readFile(DIST + file)
    res.writeHead(200, {
      'Content-Type': 'text/javascript; charset=utf-8',
      'Cache-Control': 'no-store',
      // As a CDN does: lets a page load it with integrity="…" crossorigin="anonymous".
      'Access-Control-Allow-Origin': '*',
    })
    res.end(body)
  } catch {
    logger.warn(`  dist/${file} is missing: \`npm start\` builds it, or run \`npm run build\`.`)
    res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' })
    res.end(`dist/${file} is missing: npm start builds it (or run npm run build).`)
  }
}

/** Listens on `port` of `host`, or on any free port when that one is taken. */
function listenNear(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE' && port !== 0) {
        resolve(listenNear(server, host, 0))
      } else reject(error)
    }
    server.once('error', onError)
    server.listen(port, host, () => {
      server.off('error', onError)
      resolve((server.address() as AddressInfo).port)
    })
  })
}

export function referralService(options: ServiceOptions = {}): Plugin {
  const origins = { main: 0, visitor: 0 }
  return {
    name: 'referral-service',
    configureServer(server) {
      const service = createService({ controls: true, ...options })
      const listener = getRequestListener(service.app.fetch, { overrideGlobalObjects: false })
      const logger = server.config.logger
      server.middlewares.use((req, res, next) => {
        const file = scriptFileOf(req.url)
        if (file) void serveBuilt(file, res, logger)
        else if (req.url && SERVICE_PATHS.test(req.url)) void listener(req, res)
        else next()
      })

      const httpServer = server.httpServer
      if (!httpServer) return
      // The visitor's origin: the same pages and service on another port.
      const visitor = createServer(server.middlewares)
      visitor.on('upgrade', (req, socket, head) => httpServer.emit('upgrade', req, socket, head))
      httpServer.once('close', () => {
        visitor.closeAllConnections()
        visitor.close()
      })
      httpServer.once('listening', () => {
        const address = httpServer.address() as AddressInfo
        origins.main = address.port
        listenNear(visitor, address.address, address.port + 1)
          .then((port) => {
            origins.visitor = port
            logger.info(
              `  referral service mounted at http://localhost:${address.port}/v1 (demo key pk_test_acme); simulated visitors on port ${port}, the shop under one of localhost and 127.0.0.1, the app under the other`,
            )
          })
          .catch((error: unknown) => {
            logger.warn(
              `  no second origin for the simulated visitor (${messageOf(error)}): it shares the page's storage.`,
            )
          })
      })
    },
    transformIndexHtml() {
      return [
        {
          tag: 'meta',
          attrs: { name: ORIGINS_META, content: JSON.stringify(origins) },
          injectTo: 'head',
        },
      ]
    },
  }
}

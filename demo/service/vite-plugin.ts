// Mounts the local referral service into the Vite dev server, so `npm start` serves the demo
// page and the API on one origin.
import { getRequestListener } from '@hono/node-server'
import type { Plugin } from 'vite'
import { createService, type ServiceOptions } from './app.ts'

const SERVICE_PATHS = /^\/(v1|demo-api)(\/|$|\?)/

export function referralService(options: ServiceOptions = {}): Plugin {
  return {
    name: 'referral-service',
    configureServer(server) {
      const service = createService({ controls: true, ...options })
      const listener = getRequestListener(service.app.fetch, { overrideGlobalObjects: false })
      server.middlewares.use((req, res, next) => {
        if (req.url && SERVICE_PATHS.test(req.url)) void listener(req, res)
        else next()
      })
      server.httpServer?.once('listening', () => {
        const address = server.httpServer?.address()
        const port = typeof address === 'object' && address ? address.port : '?'
        server.config.logger.info(
          `  referral service mounted at http://localhost:${port}/v1 (demo key pk_test_acme)`,
        )
      })
    },
  }
}

// The demo page as `npm start` serves it: the script-tag files built into dist/, then a Vite dev
// server with the project's vite.config.ts (the referral service mounted in it, the visitor's
// second origin beside it), here on a free port and with a cache directory of its own.
import { execSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createServer, type Plugin } from 'vite'

const ROOT = fileURLToPath(new URL('../../..', import.meta.url))
const BUILT = [
  'referral-widget.js',
  'referral-widget-banner.js',
  'referral-widget-checks.js',
  'referral-widget-cookie.js',
  'referral-widget-debug.js',
  'referral-widget-delivery.js',
  'referral-widget-link.js',
  'referral-widget-outbound.js',
  'referral-widget-pins.js',
  'referral-widget-tracking.js',
  'referral-widget-tracking-delivery.js',
  'referral-widget-ui.js',
]

/** What `npm start` builds before Vite starts, built here only if it is missing. */
function ensureScriptTag() {
  if (BUILT.every((file) => existsSync(join(ROOT, 'dist', file)))) return
  execSync('node scripts/build.mjs --script-tag', { cwd: ROOT, stdio: 'inherit' })
}

export interface DemoServer {
  /** The demo page's origin, e.g. http://localhost:41234. */
  url: string
  /** The simulated visitor's origin (another port): the shop's pages. */
  visitorUrl: string
  /** The visitor's port under the other host name: the app's pages, another site. */
  appUrl: string
  /** Calls a /demo-api route from Node, as a tester's script would. */
  api<T>(method: string, path: string, body?: unknown): Promise<T>
  close(): Promise<void>
}

/** `plugins` go beside the project's own (the engine suite's puts its recorder into each page). */
export async function startDemoServer(plugins: Plugin[] = []): Promise<DemoServer> {
  ensureScriptTag()
  const cacheDir = mkdtempSync(join(tmpdir(), 'referral-demo-vite-'))
  const server = await createServer({
    root: ROOT,
    configFile: join(ROOT, 'vite.config.ts'),
    plugins,
    cacheDir,
    logLevel: 'warn',
    clearScreen: false,
    server: { port: 0, open: false },
  })
  await server.listen()
  const address = server.httpServer?.address() as AddressInfo | null | undefined
  if (!address) throw new Error('The demo server is not listening.')
  const { port } = address
  const url = `http://localhost:${port}`

  // The visitor's origin opens just after the main one: its port is in every page's <meta>.
  let visitorPort = 0
  for (let tries = 0; tries < 100 && visitorPort === 0; tries++) {
    const html = await (await fetch(`${url}/demo/visitor.html`)).text()
    const match = /&quot;visitor&quot;:(\d+)|"visitor":(\d+)/.exec(html)
    visitorPort = Number(match?.[1] ?? match?.[2] ?? 0)
    if (visitorPort === 0) await new Promise((resolve) => setTimeout(resolve, 50))
  }
  if (visitorPort === 0) throw new Error('The demo server opened no visitor origin.')

  return {
    url,
    visitorUrl: `http://localhost:${visitorPort}`,
    appUrl: `http://127.0.0.1:${visitorPort}`,
    async api<T>(method: string, path: string, body?: unknown) {
      const response = await fetch(`${url}${path}`, {
        method,
        ...(body === undefined
          ? {}
          : { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
      })
      return (await response.json()) as T
    },
    async close() {
      await server.close()
      rmSync(cacheDir, { recursive: true, force: true })
    },
  }
}

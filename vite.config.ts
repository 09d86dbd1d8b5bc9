// `npm start`: the QA demo page (index.html, code in demo/) and the local referral service on
// one origin, plus the built script tag (see demo/service/vite-plugin.ts).
import { defineConfig } from 'vite'
import { hasDesktop } from './demo/desktop.ts'
import { referralService } from './demo/service/vite-plugin.ts'

export default defineConfig({
  plugins: [referralService()],
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  // Everything the pages import, known up front: no reload while a first visit finds a new one.
  optimizeDeps: {
    entries: ['index.html', 'demo/frame.html', 'demo/visitor.html', 'demo/app.html'],
    include: [
      'preact',
      'preact/hooks',
      'preact/jsx-runtime',
      'nanostores',
      '@nanostores/preact',
      'zod/mini',
    ],
  },
  server: {
    // The IPv4 loopback, which both localhost and 127.0.0.1 reach: the visitor's hand-off goes
    // from one name to the other. The default, localhost, may bind ::1 alone (Node 17+ keeps the
    // resolver's order), where 127.0.0.1 would find nothing.
    host: '127.0.0.1',
    port: Number(process.env.PORT ?? 5173),
    // Opens the page only where a browser can appear; elsewhere it just prints the address.
    open: hasDesktop({ platform: process.platform, env: process.env }),
  },
})

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
    entries: ['index.html', 'demo/frame.html', 'demo/visitor.html'],
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
    port: Number(process.env.PORT ?? 5173),
    // Opens the page only where a browser can appear; elsewhere it just prints the address.
    open: hasDesktop({ platform: process.platform, env: process.env }),
  },
})

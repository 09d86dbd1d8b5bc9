import { defineConfig } from 'vite'
import { referralService } from './demo/service/vite-plugin.ts'

export default defineConfig({
  plugins: [referralService()],
  server: { port: Number(process.env.PORT ?? 5173), open: !process.env.CI },
})

// Before the browser suite: Chromium is unpacked (once per package version; later runs reuse it)
// before any worker launches it, and the bundle is built from the sources.
import { execSync } from 'node:child_process'
import { chromiumTarget } from './browser.ts'

export default async function setup() {
  const started = performance.now()
  const target = await chromiumTarget()
  console.log(
    `[referral] Chromium: ${target.source} (ready in ${Math.round(performance.now() - started)} ms)`,
  )
  if (process.env.E2E_SKIP_BUILD !== '1') {
    execSync('npm run build', { stdio: 'inherit', cwd: new URL('../../..', import.meta.url) })
  }
}

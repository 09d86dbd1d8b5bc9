// Before the browser suite: Chromium is unpacked (once per package version; later runs reuse it)
// before any worker launches it, and dist/ is built when it is stale (the same check as
// `npm run build:if-stale`, so a run right after a build does not build again).
import { execFileSync } from 'node:child_process'
import { chromiumTarget } from './browser.ts'

export default async function setup() {
  const started = performance.now()
  const target = await chromiumTarget()
  console.log(
    `[referral] Chromium: ${target.source} (ready in ${Math.round(performance.now() - started)} ms)`,
  )
  execFileSync(process.execPath, ['scripts/dist-stamp.mjs', 'ensure'], {
    stdio: 'inherit',
    cwd: new URL('../../..', import.meta.url),
  })
}

// Before the browser suite: Chromium must be there, and the bundle is built from the sources.
import { execSync } from 'node:child_process'
import { assertChromium } from './browser.ts'

export default function setup() {
  assertChromium()
  if (process.env.E2E_SKIP_BUILD !== '1') {
    execSync('npm run build', { stdio: 'inherit', cwd: new URL('../../..', import.meta.url) })
  }
}

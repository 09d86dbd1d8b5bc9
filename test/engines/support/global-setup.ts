// Before the engine suite: dist/ is built when it is stale (the same check as
// `npm run build:if-stale`), as the browser suite does.
import { execFileSync } from 'node:child_process'

export default function setup() {
  execFileSync(process.execPath, ['scripts/dist-stamp.mjs', 'ensure'], {
    stdio: 'inherit',
    cwd: new URL('../../..', import.meta.url),
  })
}

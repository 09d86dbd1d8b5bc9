// `npm run test:engines`: the engine suite (test/engines) once per engine, Chromium, Firefox and
// WebKit, each from Debian's packages, then one line per engine:
//   engine chromium: N passed, N failed, N skipped
// `npm run test:engines -- firefox webkit` runs those only. Each run writes its JSON report into
// TEST_REPORT_DIR when set (CI sums them into its "tests:" line), else into a temporary directory.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const ENGINES = ['chromium', 'firefox', 'webkit']
const asked = process.argv.slice(2)
const unknown = asked.filter((name) => !ENGINES.includes(name))
if (unknown.length > 0) {
  console.error(
    `[referral] unknown engine ${unknown.join(', ')}: choose from ${ENGINES.join(', ')}`,
  )
  process.exit(2)
}
const engines = asked.length > 0 ? asked : ENGINES
const reportDir = process.env.TEST_REPORT_DIR || mkdtempSync(join(tmpdir(), 'referral-engines-'))
const root = join(import.meta.dirname, '..')

/** Passed, failed and skipped tests of one run's report (a run with no report failed whole). */
function counts(report) {
  if (!existsSync(report)) return { passed: 0, failed: 1, skipped: 0 }
  const json = JSON.parse(readFileSync(report, 'utf8'))
  const notRun = (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0)
  let failed = json.numFailedTests ?? 0
  // A file that failed to load fails no single test, but the run still failed.
  if (json.success === false && failed === 0) failed = json.numFailedTestSuites || 1
  return { passed: json.numPassedTests ?? 0, failed, skipped: notRun }
}

const lines = []
let failures = 0
for (const engine of engines) {
  console.log(`::: engine ${engine}`)
  const run = spawnSync('npx', ['vitest', 'run', '-c', 'vitest.engines.config.ts'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, REFERRAL_ENGINE: engine, TEST_REPORT_DIR: reportDir },
  })
  const result = counts(join(reportDir, `engine-${engine}.json`))
  if (run.status !== 0 && result.failed === 0) result.failed = 1
  failures += result.failed
  lines.push(
    `engine ${engine}: ${result.passed} passed, ${result.failed} failed, ${result.skipped} skipped`,
  )
}
for (const line of lines) console.log(line)
process.exit(failures > 0 ? 1 : 0)

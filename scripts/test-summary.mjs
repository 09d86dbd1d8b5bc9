// Sums the JSON reports that the test runs wrote (vitest's json reporter shape) into the
// line CI reads: "tests: N passed, N failed". A run that wrote no report counts as a failure.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

const dir = process.argv[2]
/** The exit status of the test steps: a failing run never reads as "0 failed". */
const stepsFailed = Number(process.argv[3] ?? 0) !== 0
let passed = 0
let failed = 0
let reports = 0
for (const name of dir ? readdirSync(dir) : []) {
  if (!name.endsWith('.json')) continue
  const report = JSON.parse(readFileSync(join(dir, name), 'utf8'))
  reports += 1
  passed += report.numPassedTests ?? 0
  failed += report.numFailedTests ?? 0
  // A file that failed to load fails no single test, but the run still failed.
  if (report.success === false && !report.numFailedTests) failed += report.numFailedTestSuites || 1
}
if (reports === 0 || (stepsFailed && failed === 0)) failed += 1
console.log(`tests: ${passed} passed, ${failed} failed`)
process.exit(failed > 0 ? 1 : 0)

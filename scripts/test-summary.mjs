// Sums the JSON reports that the test runs wrote (vitest's json reporter shape) into the
// line CI reads: "tests: N passed, N failed". A run that wrote no report counts as a failure.
// A skipped test fails too, unless it was skipped with platformSkip (test/support/platform.ts):
// those are listed with their reasons and counted apart, so a skip is never silent.
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'

const dir = process.argv[2]
/** The exit status of the test steps: a failing run never reads as "0 failed". */
const stepsFailed = Number(process.argv[3] ?? 0) !== 0
const NOT_RUN = new Set(['skipped', 'pending', 'todo'])
const root = join(import.meta.dirname, '..')

let passed = 0
let failed = 0
let reports = 0
/** Reason → the tests skipped for it. */
const platformSkips = new Map()
const unexpectedSkips = []
for (const name of dir ? readdirSync(dir).sort() : []) {
  if (!name.endsWith('.json')) continue
  const report = JSON.parse(readFileSync(join(dir, name), 'utf8'))
  reports += 1
  passed += report.numPassedTests ?? 0
  failed += report.numFailedTests ?? 0
  // A file that failed to load fails no single test, but the run still failed.
  if (report.success === false && !report.numFailedTests) failed += report.numFailedTestSuites || 1
  for (const file of report.testResults ?? []) {
    for (const test of file.assertionResults ?? []) {
      if (!NOT_RUN.has(test.status)) continue
      const label = `${relative(root, file.name)} > ${[...test.ancestorTitles, test.title].join(' > ')}`
      const reason = test.meta?.platformSkip
      if (typeof reason === 'string')
        platformSkips.set(reason, [...(platformSkips.get(reason) ?? []), label])
      else unexpectedSkips.push(`${label} (${test.status})`)
    }
  }
}

const platformCount = [...platformSkips.values()].reduce((sum, tests) => sum + tests.length, 0)
if (platformCount > 0) {
  console.log(`platform skips: ${platformCount}, by reason:`)
  for (const [reason, tests] of platformSkips) {
    console.log(`  ${reason} (${tests.length}):`)
    for (const test of tests) console.log(`    ${test}`)
  }
}
if (unexpectedSkips.length > 0) {
  console.log(
    `unexpected skips: ${unexpectedSkips.length}, counted as failed (a test that cannot run here calls platformSkip(context, reason) from test/support/platform.ts):`,
  )
  for (const test of unexpectedSkips) console.log(`  ${test}`)
  failed += unexpectedSkips.length
}
if (reports === 0 || (stepsFailed && failed === 0)) failed += 1
console.log(`tests: ${passed} passed, ${failed} failed`)
process.exit(failed > 0 ? 1 : 0)

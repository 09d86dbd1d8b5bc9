// Checks the package as npm would publish it (run after `npm run build`):
//   1. `npm pack --dry-run`: only dist/, README.md, LICENSE and package.json, with every built
//      entry, its types and every file package.json points to;
//   2. publint: no error, warning or suggestion;
//   3. @arethetypeswrong/cli: no problem for ESM consumers (profile esm-only: the package is
//      ESM only, so node10 and require-from-CJS resolutions are not checked).
// Exits 1 on any problem, listing all of them.
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const ALLOWED_FILES = new Set(['README.md', 'LICENSE', 'package.json'])
const ALLOWED_DIR = 'dist/'
const REQUIRED_FILES = [
  'README.md',
  'LICENSE',
  'package.json',
  'dist/index.js',
  'dist/headless.js',
  'dist/react.js',
  'dist/custom-element.js',
  'dist/server.js',
  'dist/custom-element-react.js',
  'dist/custom-element-preact.js',
  'dist/referral-widget.js',
  'dist/referral-widget-cookie.js',
  'dist/referral-widget-outbound.js',
  'dist/referral-widget-checkout.js',
  'dist/referral-widget-link.js',
  'dist/referral-widget-tracking.js',
  'dist/referral-widget-tracking-delivery.js',
  'dist/referral-widget-delivery.js',
  'dist/referral-widget-checks.js',
  'dist/referral-widget-debug.js',
  'dist/referral-widget-pins.js',
  'dist/referral-widget-ui.js',
  'dist/referral-widget-banner.js',
  'dist/referral-widget-launcher.js',
  'dist/referral-widget-messages-de.js',
  'dist/referral-widget-messages-fr.js',
  'dist/referral-widget-messages-es.js',
  'dist/referral-widget-messages-ja.js',
  'dist/referral-widget-messages-ar.js',
  'dist/referral-widget-messages-pt-br.js',
  'dist/referral-widget-messages-it.js',
  'dist/referral-widget-messages-nl.js',
  'dist/referral-widget-messages-pl.js',
  'dist/referral-widget-messages-zh-cn.js',
  'dist/referral-widget-messages-ko.js',
  'dist/types/index.d.ts',
  'dist/types/headless.d.ts',
  'dist/types/react.d.ts',
  'dist/types/custom-element.d.ts',
  'dist/types/server.d.ts',
  'dist/types/custom-element-react.d.ts',
  'dist/types/custom-element-preact.d.ts',
]
const ATTW_PROFILE = 'esm-only'

const problems = []
const fail = (message) => problems.push(message)

function run(command, args) {
  console.log(`$ ${[command, ...args].join(' ')}`)
  const result = spawnSync(command, args, {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  })
  if (result.error) throw result.error
  return result
}

/** Every path a package.json field or `exports` value points to. */
function targets(value) {
  if (typeof value === 'string') return [value]
  if (Array.isArray(value)) return value.flatMap(targets)
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(targets)
  return []
}

// --- 1. what `npm pack` would publish -----------------------------------------------------------

function checkPackedFiles() {
  const result = run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'])
  if (result.status !== 0) {
    fail(`npm pack --dry-run failed:\n${result.stderr}`)
    return
  }
  let packed
  try {
    packed = JSON.parse(result.stdout)[0].files.map((file) => file.path)
  } catch (error) {
    fail(`npm pack --dry-run --json printed no file list (${error}):\n${result.stdout}`)
    return
  }
  const files = new Set(packed)
  console.log(`${files.size} files would be published.`)

  for (const file of packed) {
    if (!ALLOWED_FILES.has(file) && !file.startsWith(ALLOWED_DIR)) {
      fail(`npm pack: ${file} would be published; only dist/, README.md, LICENSE belong there.`)
    }
  }
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
  const pointedTo = [pkg.main, pkg.module, pkg.types, pkg.exports]
    .flatMap(targets)
    .map((path) => path.replace(/^\.\//, ''))
  for (const file of new Set([...REQUIRED_FILES, ...pointedTo])) {
    if (!files.has(file)) {
      fail(`npm pack: ${file} is missing from the package (run \`npm run build\` first).`)
    }
  }
}

// --- 2. publint ---------------------------------------------------------------------------------

function checkPublint() {
  const result = run('npx', ['--no-install', 'publint', 'run', '--strict', '--level', 'suggestion'])
  process.stdout.write(result.stdout)
  // Exit status 1 only covers errors (and warnings, with --strict); suggestions count too.
  if (result.status !== 0 || !result.stdout.includes('All good!')) {
    fail(
      `publint reported problems (see above).${result.stderr.trim() ? `\n${result.stderr}` : ''}`,
    )
  }
}

// --- 3. are the types wrong? -------------------------------------------------------------------

function checkTypes() {
  const result = run('npx', [
    '--no-install',
    'attw',
    '--pack',
    '.',
    '--profile',
    ATTW_PROFILE,
    '--format',
    'json',
  ])
  let report
  try {
    report = JSON.parse(result.stdout)
  } catch {
    fail(`attw failed (exit ${result.status}):\n${result.stdout}${result.stderr}`)
    return
  }
  const analysis = report.analysis ?? {}
  // attw exits 0 on a package without types: that is a failure here.
  if (!analysis.types) {
    fail('attw: the packed package contains no types.')
    return
  }
  const ignored = new Set(['node10', 'node16-cjs']) // what the esm-only profile leaves out
  const seen = (analysis.problems ?? []).filter(
    (problem) => !('resolutionKind' in problem) || !ignored.has(problem.resolutionKind),
  )
  for (const [entrypoint, info] of Object.entries(analysis.entrypoints ?? {})) {
    const kinds = Object.entries(info.resolutions ?? {})
      .filter(([kind]) => !ignored.has(kind))
      .map(([kind, resolution]) => `${kind}: ${resolution.resolution?.fileName ?? 'unresolved'}`)
    console.log(`attw ${entrypoint}\n  ${kinds.join('\n  ')}`)
  }
  for (const problem of seen) {
    const where = [problem.entrypoint, problem.resolutionKind].filter(Boolean).join(', ')
    fail(`attw: ${problem.kind}${where ? ` (${where})` : ''}`)
  }
  if (result.status !== 0 && seen.length === 0) {
    fail(`attw exited with ${result.status}:\n${result.stderr}`)
  }
}

checkPackedFiles()
checkPublint()
checkTypes()

if (problems.length > 0) {
  console.error(`\ncheck:package: ${problems.length} problem(s)`)
  for (const problem of problems) console.error(`  - ${problem}`)
  process.exit(1)
}
console.log('\ncheck:package: the package is ready to publish.')

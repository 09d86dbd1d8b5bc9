// `npm run check:api`: the public surface as built, against the reports committed under etc/.
// One report per public entry of the package (API Extractor's `.api.md`, from dist/types), and the
// script tag's documented surface (its attributes, window.Referral's methods and events, the files
// beside the loader) as a list. Fails, showing what changed, when one differs; `--update` writes
// them. A commit that changes a report comes with a changeset (.changeset/*.md) or a release
// (CHANGELOG.md) in the same commit: checked over the history when git has it.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Extractor, ExtractorConfig } from '@microsoft/api-extractor'
import pkg from '../package.json' with { type: 'json' }
import { OPTION_ATTRIBUTES } from '../src/core/options.ts'
import { EVENTS, METHODS } from '../src/core/types.ts'
import { LAUNCHER_ATTRIBUTES } from '../src/embed/openers.ts'
import { UI_ATTRIBUTES } from '../src/embed/ui-attributes.ts'
import { ARTIFACTS } from './sizes.mjs'

const ROOT = join(import.meta.dirname, '..')
const REPORTS = join(ROOT, 'etc')
const update = process.argv.includes('--update')
const problems: string[] = []

/** Each public entry (package.json `exports`) by its report's name, with its declarations. */
const entries = Object.entries(pkg.exports)
  .filter(([path]) => path !== './package.json')
  .map(([path, target]) => ({
    name: path === '.' ? pkg.name : `${pkg.name}${path.slice(1).replace(/\//g, '-')}`,
    types: join(ROOT, (target as { types: string }).types),
  }))

/** API Extractor's report of one entry, compared (or, with --update, written). */
function checkEntry(entry: { name: string; types: string }) {
  const config = ExtractorConfig.prepare({
    configObject: {
      projectFolder: ROOT,
      mainEntryPointFilePath: entry.types,
      compiler: {
        overrideTsconfig: {
          compilerOptions: {
            strict: true,
            module: 'esnext',
            moduleResolution: 'bundler',
            target: 'es2022',
            jsx: 'react-jsx',
            jsxImportSource: 'preact',
            skipLibCheck: true,
            lib: ['es2022', 'dom', 'dom.iterable'],
          },
        },
      },
      apiReport: {
        enabled: true,
        reportFolder: REPORTS,
        reportTempFolder: join(ROOT, 'node_modules/.cache/api-reports'),
        reportFileName: `${entry.name}.api.md`,
      },
      docModel: { enabled: false },
      dtsRollup: { enabled: false },
      tsdocMetadata: { enabled: false },
      messages: {
        compilerMessageReporting: { default: { logLevel: 'warning' } },
        extractorMessageReporting: { default: { logLevel: 'none' } },
        tsdocMessageReporting: { default: { logLevel: 'none' } },
      },
    },
    configObjectFullPath: join(ROOT, 'api-extractor.json'),
    packageJsonFullPath: join(ROOT, 'package.json'),
  })
  const result = Extractor.invoke(config, { localBuild: update, messageCallback: quietly })
  if (!result.succeeded || (!update && result.apiReportChanged)) {
    problems.push(
      `${entry.name}: the built API differs from etc/${entry.name}.api.md (the new one is in node_modules/.cache/api-reports/). If the change is meant, run \`npm run check:api -- --update\` and add a changeset.`,
    )
  }
}

function quietly(message: { logLevel: string; text: string; handled: boolean }) {
  if (message.logLevel !== 'error' && message.logLevel !== 'warning') message.handled = true
}

/** The script tag's surface as a site owner and a tester rely on it (WIDGET.md sections 1-3). */
function scriptTagSurface(): string {
  const attributes = [
    ...Object.values(OPTION_ATTRIBUTES).map((option) => option.scriptTag),
    'data-global',
    ...Object.values(UI_ATTRIBUTES),
    ...Object.values(LAUNCHER_ATTRIBUTES),
  ].sort()
  const files = [...Object.keys(ARTIFACTS), 'referral-widget-messages-<language>.js'].sort()
  const list = (items: readonly string[]) => items.map((item) => `- \`${item}\``).join('\n')
  return `# The script tag's public surface

Checked by \`npm run check:api\` against the sources; written by \`npm run check:api -- --update\`.
A change here is a change for every site that pastes the tag: it comes with a changeset.

## Attributes of the tag

${list(attributes)}

## window.Referral (also \`Referral('<method>', …)\`)

${list(METHODS)}

## Events (\`Referral.on(name, listener)\`)

${list(EVENTS)}

## Files the loader and its files load beside it

${list(files)}
`
}

function checkScriptTag() {
  const file = join(REPORTS, 'script-tag.api.md')
  const built = scriptTagSurface()
  if (update) writeFileSync(file, built)
  else if (!existsSync(file) || readFileSync(file, 'utf8') !== built)
    problems.push(
      `the script tag's surface differs from etc/script-tag.api.md:\n${built}\nIf the change is meant, run \`npm run check:api -- --update\` and add a changeset.`,
    )
}

/** Every commit that changed a report also added a changeset or made a release. */
function checkChangesets() {
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim()
  try {
    if (git('rev-parse', '--is-shallow-repository') === 'true') return
    for (const commit of git('log', '--format=%H', '--', 'etc/').split('\n').filter(Boolean)) {
      const changed = git('diff-tree', '--no-commit-id', '--name-status', '-r', '--root', commit)
      const changeset = /^A\t\.changeset\/(?!README)[^/]+\.md$/m.test(changed)
      const release = /^[AM]\tCHANGELOG\.md$/m.test(changed)
      if (!changeset && !release)
        problems.push(
          `commit ${commit.slice(0, 10)} changes a report under etc/ without a changeset (npm run changeset) or a release.`,
        )
    }
  } catch {
    // Not a git checkout (a package tarball): nothing to check.
  }
}

mkdirSync(REPORTS, { recursive: true })
for (const entry of entries) checkEntry(entry)
checkScriptTag()
if (!update) checkChangesets()
for (const problem of problems) console.error(`[check:api] ${problem}`)
console.log(
  problems.length === 0
    ? `[check:api] ${entries.length} entries and the script tag: ${update ? 'written' : 'as committed'}.`
    : `[check:api] ${problems.length} problem${problems.length === 1 ? '' : 's'}.`,
)
process.exitCode = problems.length === 0 ? 0 : 1

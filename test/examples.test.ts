// The snippets the README and docs/ show for each way in are the files in docs/examples/ (a marker
// names the file above each), and those compile as an
// app's strict TypeScript compiles them, against the built package's types (`referral-widget`
// resolves through package.json "exports" to dist/types, as an installed copy does). The browser
// suite builds and runs the React, Preact, Vue and Next.js ones (test/e2e/examples*.e2e.ts);
// test/examples-payments.test.ts runs the payment webhook ones.
import { execFile } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..')
const EXAMPLES = join(root, 'docs/examples')
const README = readFileSync(join(root, 'README.md'), 'utf8')
/** The pages that show examples: the README and every page of docs/. */
const PAGES = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
]
const built = existsSync(join(root, 'dist/types/index.d.ts'))

/** Files the examples need that the README does not show: compiler settings, a root layout. */
const SUPPORT = new Set([
  'tsconfig.json',
  'tsconfig.node.json',
  'tsconfig.react.json',
  'tsconfig.vue.json',
  'next/app/layout.tsx',
  'server/users.ts',
])

/** A marker line, then the fenced block it names the file of. */
const MARKED = /^<!-- example: docs\/examples\/(\S+) -->\n```[\w-]*\n([\s\S]*?)^```$/gm

const markedIn = (text: string) =>
  Array.from(text.matchAll(MARKED), ([, file = '', body = '']) => ({ file, body }))
const marked = markedIn(README)
const everyMarked = PAGES.flatMap((page) =>
  markedIn(readFileSync(join(root, page), 'utf8')).map((block) => ({ page, ...block })),
)

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? filesUnder(join(dir, entry.name))
      : [relative(EXAMPLES, join(dir, entry.name))],
  )
}

describe('README.md and docs/examples/', () => {
  it.each(PAGES)('every example marker of %s is followed at once by a fenced block', (page) => {
    const text = readFileSync(join(root, page), 'utf8')
    const markers = text.match(/^<!-- example: .* -->$/gm) ?? []
    expect(markers.length).toBe(markedIn(text).length)
    if (page === 'README.md') expect(marked.length).toBeGreaterThan(0)
  })

  it.each(everyMarked)('$page: the block marked $file is that file, as it is', ({ file, body }) => {
    const path = join(EXAMPLES, file)
    expect(existsSync(path), `docs/examples/${file} exists`).toBe(true)
    expect(body.trim()).toBe(readFileSync(path, 'utf8').trim())
  })

  it('the README or a docs page shows every example (the rest are named as support files)', () => {
    const shown = new Set(everyMarked.map(({ file }) => file))
    const unshown = filesUnder(EXAMPLES).filter((file) => !shown.has(file) && !SUPPORT.has(file))
    expect(unshown).toEqual([])
  })
})

/** Runs a Node script (a compiler's bin) in the repository; resolves to its output on failure. */
function run(script: string, args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [join(root, script), ...args], { cwd: root }, (error, out, err) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0
      resolve({ code, output: `${out}${err}` })
    })
  })
}

describe('the examples under strict TypeScript (after npm run build)', () => {
  it('tsc and vue-tsc check every one and find no error', { timeout: 120_000 }, async () => {
    expect(built, 'dist/types is built: run npm run build first').toBe(true)
    const tsc = 'node_modules/typescript/bin/tsc'
    const results = await Promise.all(
      [
        [tsc, 'docs/examples/tsconfig.json'],
        [tsc, 'docs/examples/tsconfig.react.json'],
        [tsc, 'docs/examples/tsconfig.node.json'],
        ['node_modules/vue-tsc/bin/vue-tsc.js', 'docs/examples/tsconfig.vue.json'],
      ].map(([compiler = '', project = '']) => run(compiler, ['-p', project, '--listFiles'])),
    )
    const lines = results.flatMap(({ output }) => output.split('\n'))
    expect(lines.filter((line) => /error TS\d+/.test(line))).toEqual([])
    expect(results.map(({ code }) => code)).toEqual([0, 0, 0, 0])
    // No example is left out of every compilation.
    const checked = new Set(lines.map((line) => relative(EXAMPLES, line.trim())))
    const sources = filesUnder(EXAMPLES).filter((file) => /\.(tsx?|vue)$/.test(file))
    expect(sources.filter((file) => !checked.has(file))).toEqual([])
  })
})

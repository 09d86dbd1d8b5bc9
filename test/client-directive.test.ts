// React Server Components bundlers (Next.js's App Router) render a module on the client only when
// its file starts with 'use client'. Every built file that defines or re-exports a component or
// a hook starts with it; the headless core, the server entry and the custom element do not, so
// they stay usable in server code.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'
import { beforeAll, describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..')
const built = existsSync(join(root, 'dist/react.js'))

/** The directive prologue of a built file: the string statements before any other. */
function directives(file: string): string[] {
  const code = readFileSync(join(root, file), 'utf8')
  const source = ts.createSourceFile(file, code, ts.ScriptTarget.ES2022, false, ts.ScriptKind.JS)
  const prologue: string[] = []
  for (const statement of source.statements) {
    if (!ts.isExpressionStatement(statement) || !ts.isStringLiteral(statement.expression)) break
    prologue.push(statement.expression.text)
  }
  return prologue
}

describe('the built files’ directives (after npm run build)', () => {
  beforeAll(() => {
    expect(built, 'dist/ is built: run npm run build first').toBe(true)
  })

  it.each([
    'dist/react.js', // referral-widget/react: the React components
    'dist/index.js', // referral-widget: re-exports the Preact components
    'dist/components.js', // the Preact components
    'dist/ui/use-widget.js', // the hook both use
  ])("%s starts with 'use client'", (file) => {
    expect(directives(file)).toEqual(['use client'])
    expect(readFileSync(join(root, file), 'utf8').startsWith('"use client";\n')).toBe(true)
  })

  it.each([
    'dist/headless.js',
    'dist/core/create-referral.js',
    'dist/server.js',
    'dist/custom-element.js',
    'dist/custom-element-react.js',
    'dist/custom-element-preact.js',
  ])('%s has no directive', (file) => {
    expect(directives(file)).toEqual([])
  })

  it("only those four files have 'use client'", () => {
    const withDirective = (dir: string): string[] =>
      ts.sys
        .readDirectory(join(root, dir), ['.js'])
        .filter((path) => readFileSync(path, 'utf8').includes('use client'))
        .map((path) => path.slice(root.length + 1))
    expect(withDirective('dist').sort()).toEqual(
      ['dist/components.js', 'dist/index.js', 'dist/react.js', 'dist/ui/use-widget.js'].sort(),
    )
  })
})

// The widget parses no markup and evaluates no string as code: a page that enforces Trusted Types
// would refuse it (and a page that does not should not depend on its escaping). The only sink it
// feeds is a <script src>, through its own policy (src/shared/trusted-script-url.ts).
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { expect, it } from 'vitest'

const root = join(import.meta.dirname, '..')

const SINKS =
  /\b(innerHTML|outerHTML|insertAdjacentHTML|createContextualFragment|srcdoc|dangerouslySetInnerHTML|parseFromString|setHTMLUnsafe)\b|document\.write(ln)?\b|\beval\s*\(|\bnew\s+Function\s*\(|\b(setTimeout|setInterval)\(\s*['"`]/

it('no source file of the widget writes markup or code as a string', () => {
  const files = readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.tsx?$/.test(file) && !/\.test(-d)?\.tsx?$/.test(file))
    .map((file) => join(root, 'src', file))
  expect(files.length).toBeGreaterThan(50)
  const found = files.flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, index) =>
        SINKS.test(line) ? [`${relative(root, file)}:${index + 1}: ${line.trim()}`] : [],
      ),
  )
  expect(found).toEqual([])
})

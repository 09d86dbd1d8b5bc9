// The documents point at files by path (where a rule is tested, which module does what); a file
// that moved must not leave a pointer to nothing behind.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..')
const documents = [
  'README.md',
  'SECURITY.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
]
// A path of the repository anywhere in the text: `test/core/delivery.test.ts`, (docs/SERVER.md).
const PATH = /(?<![\w/.-])(?:src|test|demo|scripts|docs)\/[\w./-]*\w\.[a-z]+\b/g

describe('paths named in the documents', () => {
  it.each(documents)('%s names only files that exist', (document) => {
    const text = readFileSync(join(root, document), 'utf8')
    const missing = [...text.matchAll(PATH)]
      .map((match) => match[0])
      .filter((path) => !path.includes('*') && !existsSync(join(root, path)))
    expect(missing).toEqual([])
  })
})

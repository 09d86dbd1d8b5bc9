// The README's `npm install` must leave a fresh clone as it was: npm rewrites a lock whose own
// version lags package.json's (a release that bumped one and not the other). The release's
// version step updates both (`npm run release:version`); this holds them together.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'

const read = (file: string) =>
  JSON.parse(readFileSync(join(import.meta.dirname, '..', file), 'utf8'))
const pkg = read('package.json') as {
  name: string
  version: string
  scripts: Record<string, string>
}
const lock = read('package-lock.json') as {
  name: string
  version: string
  packages: Record<string, { name?: string; version?: string }>
}

it("package-lock.json carries package.json's name and version, at its top and in its root entry", () => {
  expect({ name: lock.name, version: lock.version }).toEqual({
    name: pkg.name,
    version: pkg.version,
  })
  expect({ name: lock.packages['']?.name, version: lock.packages['']?.version }).toEqual({
    name: pkg.name,
    version: pkg.version,
  })
})

it('the release version step writes the lock after changesets writes package.json', () => {
  const step = pkg.scripts['release:version'] ?? ''
  expect(step).toMatch(/^changeset version && npm install --package-lock-only\b/)
})

// The version means something: CHANGELOG.md's top entry is the version package.json carries, and
// every entry names a version in order, newest first.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import pkg from '../package.json' with { type: 'json' }

const changelog = readFileSync(join(import.meta.dirname, '../CHANGELOG.md'), 'utf8')
const versions = [...changelog.matchAll(/^## (\d+\.\d+\.\d+)$/gm)].map((match) => match[1] ?? '')

it("CHANGELOG.md's top entry is package.json's version", () => {
  expect(versions[0]).toBe(pkg.version)
})

it('its entries go from the newest version down', () => {
  const order = (version: string) => version.split('.').map(Number)
  const sorted = [...versions].sort((a, b) => {
    const [x, y] = [order(a), order(b)]
    for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (y[i] ?? 0) - (x[i] ?? 0)
    return 0
  })
  expect(versions).toEqual(sorted)
  expect(new Set(versions).size).toBe(versions.length)
})

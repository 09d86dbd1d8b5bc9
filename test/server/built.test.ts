// The built referral-widget/server (dist/server.js) must load where there is neither Node nor a
// page: Deno, Bun, edge workers. Checked on the built file (`npm test` builds dist/ when stale).
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = join(dirname(fileURLToPath(import.meta.url)), '../..')
const file = join(root, 'dist/server.js')

/** Globals a page has and a server runtime lacks. */
const FOREIGN_GLOBALS = [
  'window',
  'document',
  'navigator',
  'location',
  'localStorage',
  'sessionStorage',
  'self',
  'HTMLElement',
  'customElements',
  'XMLHttpRequest',
]

/**
 * Imports dist/server.js in a fresh Node process whose DOM globals are traps, then reads a
 * cookie with it; prints the names touched and the result as JSON.
 */
function importWithTraps(source: string): { touched: string[]; result: unknown } {
  const script = `
    const touched = []
    for (const name of ${JSON.stringify(FOREIGN_GLOBALS)}) {
      Object.defineProperty(globalThis, name, { configurable: true, get() { touched.push(name) } })
    }
    const module = await import(${JSON.stringify(pathToFileURL(source).href)})
    const result = module.readAttribution('referral_attribution=v1.bad')
    console.log(JSON.stringify({ touched, result }))
  `
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
  })
  if (run.status !== 0) throw new Error(`importing ${source} failed: ${run.stderr}`)
  return JSON.parse(run.stdout)
}

describe('dist/server.js', () => {
  it('is one module with no import at all, so no node: module', () => {
    const text = readFileSync(file, 'utf8')
    expect(text).not.toMatch(/^\s*import[\s{*'"]/m)
    expect(text).not.toMatch(/\bfrom\s*['"]/)
    expect(text).not.toMatch(/\bimport\s*\(/)
    expect(text).not.toContain('node:')
    expect(text).not.toMatch(/\brequire\s*\(/)
    // Node's own globals cannot be hidden from Node itself while it loads a module: read the text.
    expect(text).not.toMatch(/\b(process|Buffer|__dirname|global)\b[.[]/)
  })

  it('touches no DOM global while it loads, and then works', () => {
    expect(importWithTraps(file)).toEqual({ touched: [], result: null })
  })

  it('the check notices a module that reads a DOM global as it loads', () => {
    const dir = mkdtempSync(join(tmpdir(), 'referral-server-'))
    const bad = join(dir, 'server.js')
    try {
      writeFileSync(bad, `const t = typeof navigator\n${readFileSync(file, 'utf8')}`)
      expect(importWithTraps(bad).touched).toEqual(['navigator'])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

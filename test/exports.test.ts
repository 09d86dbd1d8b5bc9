// The package's public surface. Removing (or adding) a runtime export, a method or store of
// createReferral(), or an `exports` subpath fails here: change the lists on purpose, with the
// docs. The built files are checked too (`npm test` builds dist/ when stale).
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import * as customElementEntry from '../src/custom-element.ts'
import * as coreEntry from '../src/headless.ts'
import * as entry from '../src/index.ts'
import * as reactEntry from '../src/react.ts'
import * as serverEntry from '../src/server.ts'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

/** The runtime exports of `referral-widget`. Types are covered by test/types*.test-d.ts. */
const ENTRY_EXPORTS = [
  'ApiError',
  'ConfigError',
  'ReferralBanner',
  'ReferralWidget',
  'createMemoryStorage',
  'createReferral',
]
/** The runtime exports of `referral-widget/core`: the headless core, no UI. */
const CORE_EXPORTS = ['ApiError', 'ConfigError', 'createMemoryStorage', 'createReferral']
/** The runtime exports of `referral-widget/react`: the components and the core. */
const REACT_EXPORTS = ['ReferralBanner', 'ReferralWidget', ...CORE_EXPORTS]
/** The runtime exports of `referral-widget/custom-element`. */
const CUSTOM_ELEMENT_EXPORTS = ['ReferralWidgetElement']
/** The runtime exports of `referral-widget/server`. */
const SERVER_EXPORTS = [
  'ATTRIBUTION_COOKIE',
  'DEFAULT_TIMEOUT_MS',
  'KEPT_COOKIE',
  'KEPT_COOKIE_INSECURE',
  'RecordPurchaseError',
  'RecordRefundError',
  'RecordSignupError',
  'ServerConfigError',
  'checkoutReference',
  'keepAttribution',
  'lemonSqueezyWebhook',
  'paddleWebhook',
  'parseAttribution',
  'readAttribution',
  'readCheckoutReference',
  'recordPurchase',
  'recordRefund',
  'recordSignup',
  'signUserToken',
  'stripeWebhook',
]

const METHODS = [
  'identify',
  'track',
  'getLink',
  'getAttribution',
  'decorate',
  'on',
  'flush',
  'forget',
  'queueSize',
  'destroy',
  'dismissBanner',
]
const STORES = [
  '$campaign',
  '$link',
  '$attribution',
  '$queueSize',
  '$connection',
  '$bannerDismissed',
]

const PACKAGE_EXPORTS = [
  '.',
  './core',
  './custom-element',
  './custom-element/react',
  './custom-element/preact',
  './react',
  './server',
  './package.json',
]

type Entry = typeof entry

const runtimeNames = (module: object) =>
  Object.keys(module)
    .filter((name) => name !== 'default' && name !== '__esModule')
    .sort()

/** Every file an `exports` value points to, whatever the conditions. */
function targets(value: unknown): string[] {
  if (typeof value === 'string') return [value]
  if (Array.isArray(value)) return value.flatMap(targets)
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(targets)
  return []
}

const importBuilt = (path: string): Promise<object> =>
  import(/* @vite-ignore */ pathToFileURL(join(root, path)).href)

function checkInstance(
  createReferral: Entry['createReferral'],
  memory: Entry['createMemoryStorage'],
) {
  const referral = createReferral({
    publicKey: 'pk_test_acme',
    apiBase: 'https://api.example.test',
    storage: memory(),
    // Never answers: nothing here needs the service.
    fetch: () => new Promise<Response>(() => {}),
  })
  try {
    for (const name of METHODS) {
      expect(typeof (referral as unknown as Record<string, unknown>)[name], name).toBe('function')
    }
    for (const name of STORES) {
      const store = (referral as unknown as Record<string, unknown>)[name] as Record<
        string,
        unknown
      >
      expect(typeof store?.get, `${name}.get`).toBe('function')
      expect(typeof store?.listen, `${name}.listen`).toBe('function')
      expect(typeof store?.subscribe, `${name}.subscribe`).toBe('function')
    }
    expect(referral.queueSize()).toBe(0)
    expect(referral.getAttribution()).toBeNull()
    expect(referral.$queueSize.get()).toBe(0)
  } finally {
    referral.destroy()
  }
}

describe('referral-widget (src/index.ts)', () => {
  it('exports exactly the public runtime names', () => {
    expect(runtimeNames(entry)).toEqual([...ENTRY_EXPORTS].sort())
  })

  it('exports the components, the core and the error classes with their kinds', () => {
    expect(typeof entry.ReferralWidget).toBe('function')
    expect(typeof entry.ReferralBanner).toBe('function')
    expect(typeof entry.createReferral).toBe('function')
    expect(typeof entry.createMemoryStorage).toBe('function')
    expect(new entry.ApiError({ status: 500, type: 't', code: 'c', message: 'm' })).toBeInstanceOf(
      Error,
    )
    expect(new entry.ConfigError('apiBase', 'm')).toBeInstanceOf(Error)
  })

  it('createReferral() returns every documented method and store', () => {
    checkInstance(entry.createReferral, entry.createMemoryStorage)
  })
})

describe('referral-widget/core (src/headless.ts)', () => {
  it('exports exactly the core’s runtime names, the same objects as the main entry', () => {
    expect(runtimeNames(coreEntry)).toEqual([...CORE_EXPORTS].sort())
    expect(coreEntry.createReferral).toBe(entry.createReferral)
    checkInstance(coreEntry.createReferral, coreEntry.createMemoryStorage)
  })
})

describe('referral-widget/react (src/react.ts)', () => {
  it('exports exactly the React components and the core', () => {
    expect(runtimeNames(reactEntry)).toEqual([...REACT_EXPORTS].sort())
    expect(reactEntry.ReferralWidget).not.toBe(entry.ReferralWidget)
    expect(reactEntry.createReferral).toBe(entry.createReferral)
  })
})

describe('referral-widget/custom-element (src/custom-element.ts)', () => {
  it('exports exactly the public runtime names and imports without a DOM', () => {
    expect(runtimeNames(customElementEntry)).toEqual([...CUSTOM_ELEMENT_EXPORTS].sort())
    expect(typeof customElementEntry.ReferralWidgetElement).toBe('function')
  })
})

describe('referral-widget/server (src/server.ts)', () => {
  it('exports exactly the public runtime names', () => {
    expect(runtimeNames(serverEntry)).toEqual([...SERVER_EXPORTS].sort())
    expect(serverEntry.ATTRIBUTION_COOKIE).toBe('referral_attribution')
    expect(serverEntry.DEFAULT_TIMEOUT_MS).toBe(10_000)
    expect(serverEntry.KEPT_COOKIE).toBe('__Host-referral_kept')
  })
})

describe('package.json', () => {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    exports: Record<string, unknown>
  }

  it('keeps every public subpath', () => {
    expect(Object.keys(pkg.exports)).toEqual(PACKAGE_EXPORTS)
  })

  it('every exports target exists after a build', () => {
    const files = Object.values(pkg.exports).flatMap(targets)
    expect(files.length).toBeGreaterThan(0)
    for (const file of files) expect(existsSync(join(root, file)), file).toBe(true)
    // The script tag loads its panel from beside itself.
    expect(existsSync(join(root, 'dist/referral-widget-ui.js'))).toBe(true)
  })
})

describe('the built package (dist/)', () => {
  it('dist/index.js exports the same names as the source', async () => {
    const module = await importBuilt('dist/index.js')
    expect(runtimeNames(module)).toEqual([...ENTRY_EXPORTS].sort())
  })

  it('dist/index.js creates a working instance', async () => {
    const module = (await importBuilt('dist/index.js')) as Entry
    checkInstance(module.createReferral, module.createMemoryStorage)
  })

  it('dist/server.js exports the same names as the source', async () => {
    const module = await importBuilt('dist/server.js')
    expect(runtimeNames(module)).toEqual([...SERVER_EXPORTS].sort())
  })

  it('dist/headless.js and dist/react.js export the same names as the sources', async () => {
    expect(runtimeNames(await importBuilt('dist/headless.js'))).toEqual([...CORE_EXPORTS].sort())
    expect(runtimeNames(await importBuilt('dist/react.js'))).toEqual([...REACT_EXPORTS].sort())
  })

  it('dist/react.js imports no Preact: it brings its own', () => {
    const code = readFileSync(join(root, 'dist/react.js'), 'utf8')
    expect(code).not.toMatch(/from\s*["']preact/)
    expect(code).toMatch(/from\s*["']react["']/)
  })

  it('dist/custom-element.js imports no Preact (it brings its own) and the core from the esm files', () => {
    const code = readFileSync(join(root, 'dist/custom-element.js'), 'utf8')
    expect(code).not.toMatch(/from\s*["']preact/)
    expect(code).toMatch(/from\s*["']\.\/ui\/registry\.js["']/)
  })

  it('every export imports in plain Node 20, as a server build or server rendering would', () => {
    // Natively, not through the test runner's module loader. The script tag's files are not
    // exports: they run in a page, not an import (self-hosting copies them from dist/).
    const { exports } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      exports: Record<string, unknown>
    }
    const names = Object.keys(exports).filter((name) => name !== './package.json')
    expect(names.some((name) => name.startsWith('./referral-widget'))).toBe(false)
    const script = names
      .map(
        (name) =>
          `await import(${JSON.stringify(name === '.' ? 'referral-widget' : `referral-widget/${name.slice(2)}`)})`,
      )
      .join('\n')
    expect(() =>
      execFileSync(process.execPath, ['--input-type=module', '-e', script], {
        cwd: root,
        stdio: 'pipe',
      }),
    ).not.toThrow()
  })

  it('Node links every entry that bundles its UI: each name it imports from the esm files is there', () => {
    // Natively, not through the test runner's module loader, which would give undefined instead.
    const entries = ['dist/react.js', 'dist/custom-element.js', 'dist/custom-element-react.js']
    const script = entries.map((file) => `await import(${JSON.stringify(`./${file}`)})`).join('\n')
    expect(() =>
      execFileSync(process.execPath, ['--input-type=module', '-e', script], {
        cwd: root,
        stdio: 'pipe',
      }),
    ).not.toThrow()
  })

  it.each([
    'dist/custom-element.js',
    'dist/custom-element-react.js',
    'dist/custom-element-preact.js',
  ])('%s exports the same names as the source', async (file) => {
    const module = await importBuilt(file)
    expect(runtimeNames(module)).toEqual([...CUSTOM_ELEMENT_EXPORTS].sort())
  })
})

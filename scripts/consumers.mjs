// Small consumer apps built with Vite against the built package (run `npm run build` first), the
// way an app that installed it would: the package's published files copied into a temporary
// node_modules, beside links to only the frameworks that app installed. `node
// scripts/consumers.mjs` (`npm run size:apps`, after `npm run build`) prints the gzip bytes
// (level 9) each way in adds to an app.
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { build } from 'vite'

const ROOT = process.env.CONSUMER_ROOT ?? join(import.meta.dirname, '..')
const MODULES = join(ROOT, 'node_modules')

/** Raised when an app is asked to install a package this repository does not have. */
export class MissingPackageError extends Error {
  name = 'MissingPackageError'
  constructor(name) {
    super(`[referral] ${name} is not in node_modules: run npm install.`)
    this.package = name
  }
}

/**
 * A temporary app folder whose node_modules holds what `packages` names (a map of the names the
 * app installed to this repository's installed copies: `{ preact: 'preact11' }` installs Preact
 * 11 as `preact`) beside `referral-widget` and its dependencies, as npm would install them. The
 * caller removes it.
 */
export function consumerDir(packages = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'referral-consumer-'))
  try {
    const own = join(dir, 'node_modules/referral-widget')
    mkdirSync(own, { recursive: true })
    cpSync(join(ROOT, 'dist'), join(own, 'dist'), { recursive: true })
    cpSync(join(ROOT, 'package.json'), join(own, 'package.json'))
    // npm installs the package's dependencies beside it.
    const { dependencies = {} } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
    const installs = {
      ...Object.fromEntries(Object.keys(dependencies).map((n) => [n, n])),
      ...packages,
    }
    for (const [name, installed] of Object.entries(installs)) {
      const source = join(MODULES, installed)
      try {
        readFileSync(join(source, 'package.json'))
      } catch {
        throw new MissingPackageError(installed)
      }
      mkdirSync(dirname(join(dir, 'node_modules', name)), { recursive: true })
      symlinkSync(source, join(dir, 'node_modules', name), 'dir')
    }
    return dir
  } catch (error) {
    rmSync(dir, { recursive: true, force: true })
    throw error
  }
}

/**
 * Builds `code` (an ES module) as an app's entry, in a consumerDir(packages). Returns the
 * output's JavaScript and its gzip size.
 */
export async function buildConsumer(code, packages = {}) {
  const dir = consumerDir(packages)
  try {
    writeFileSync(join(dir, 'main.js'), code)
    const result = await build({
      root: dir,
      configFile: false,
      logLevel: 'silent',
      define: { 'process.env.NODE_ENV': '"production"' },
      build: {
        write: false,
        target: 'es2022',
        modulePreload: false,
        rollupOptions: { input: join(dir, 'main.js') },
      },
    })
    const outputs = (Array.isArray(result) ? result : [result]).flatMap((each) => each.output)
    const js = outputs
      .filter((file) => file.type === 'chunk')
      .map((chunk) => chunk.code)
      .join('\n')
    return { js, gzip: gzipSync(js, { level: 9 }).length }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const KEY = `{ publicKey: 'pk_test_acme', apiBase: 'https://api.example.test' }`

/** Each app: its framework alone, then with each way in. */
export const APPS = {
  React: {
    packages: { react: 'react', 'react-dom': 'react-dom' },
    base: `import { createElement as h } from 'react'\nimport { createRoot } from 'react-dom/client'\n`,
    render: (element) => `createRoot(document.body).render(${element})\n`,
    ways: {
      'headless core': [
        `import { createReferral } from 'referral-widget/core'\ncreateReferral(${KEY})\n`,
        `h('div')`,
      ],
      component: [
        `import { ReferralWidget } from 'referral-widget/react'\n`,
        `h(ReferralWidget, ${KEY})`,
      ],
      // The element brings its own Preact: the app installs nothing more.
      'custom element': [`import 'referral-widget/custom-element'\n`, `h('referral-widget')`],
    },
    empty: `h('div')`,
  },
  Preact: {
    packages: { preact: 'preact' },
    base: `import { h, render } from 'preact'\n`,
    render: (element) => `render(${element}, document.body)\n`,
    ways: {
      'headless core': [
        `import { createReferral } from 'referral-widget'\ncreateReferral(${KEY})\n`,
        `h('div')`,
      ],
      component: [
        `import { ReferralWidget } from 'referral-widget'\n`,
        `h(ReferralWidget, ${KEY})`,
      ],
      'custom element': [`import 'referral-widget/custom-element'\n`, `h('referral-widget')`],
    },
    empty: `h('div')`,
  },
  Vue: {
    packages: { vue: 'vue' },
    base: `import { createApp, h } from 'vue'\n`,
    render: (element) => `createApp({ render: () => ${element} }).mount(document.body)\n`,
    ways: {
      'headless core': [
        `import { createReferral } from 'referral-widget/core'\ncreateReferral(${KEY})\n`,
        `h('div')`,
        {},
      ],
      'custom element': [`import 'referral-widget/custom-element'\n`, `h('referral-widget')`],
    },
    empty: `h('div')`,
  },
}

/** The gzip bytes each way in adds to each app: `{ React: { component: 1234, … }, … }`. */
export async function consumerCosts() {
  const costs = {}
  for (const [name, app] of Object.entries(APPS)) {
    const alone = await buildConsumer(app.base + app.render(app.empty), app.packages)
    costs[name] = { 'the framework alone': alone.gzip }
    for (const [way, [imports, element, extra = {}]] of Object.entries(app.ways)) {
      const packages = { ...app.packages, ...extra }
      const built = await buildConsumer(imports + app.base + app.render(element), packages)
      costs[name][way] = built.gzip - alone.gzip
    }
  }
  return costs
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const costs = await consumerCosts()
  if (process.argv.includes('--json')) console.log(JSON.stringify(costs, null, 2))
  else
    for (const [app, ways] of Object.entries(costs))
      for (const [way, bytes] of Object.entries(ways))
        console.log(`${app.padEnd(7)} ${way.padEnd(20)} ${String(bytes).padStart(6)} B gzip`)
}

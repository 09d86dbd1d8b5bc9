// The plugins that keep one copy of each shared module on a page. Two files publish what the files
// after them read: the loader (referral-widget.js) the modules src/embed/loader-runtime.ts lists,
// for the tracking part and the rest; the tracking part the modules src/embed/runtime.ts lists,
// for the UI, link, cookie and outbound files. And the React entry imports the core from the esm
// build instead of bundling its own.
import { readFileSync } from 'node:fs'
import { dirname, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Plugin } from 'vite'

/** A list of shared modules: the file that names them, and the global the array goes to. */
export interface RuntimeList {
  file: string
  global: string
}

const list = (file: string, symbol: string): RuntimeList => ({
  file: fileURLToPath(new URL(`../../src/embed/${file}`, import.meta.url)),
  global: `globalThis[Symbol.for('${symbol}')]`,
})

/** What the loader publishes: for the tracking part and every file after it. */
export const LOADER_RUNTIME = list('loader-runtime.ts', 'referral-widget.loader')
/** What the tracking part publishes: for the UI, link, cookie and outbound files. */
export const TRACKING_RUNTIME = list('runtime.ts', 'referral-widget.runtime')

/**
 * The list, in order: what a file publishes, as one array (no property names to carry), indexed
 * the same on both sides.
 */
function sharedRuntime({ file }: RuntimeList) {
  const lines = readFileSync(file, 'utf8').matchAll(/^export \{([^}]+)\} from '([^']+)'$/gm)
  const entries: Array<{ module: string; name: string }> = []
  for (const [, names = '', from = ''] of lines) {
    const module = resolve(dirname(file), from)
    for (const name of names.split(',').map((part) => part.trim()))
      if (name) entries.push({ module, name })
  }
  return entries
}

/** For the file that publishes `runtime`: its list becomes the array the files after it read. */
export function publishRuntime(runtime: RuntimeList): Plugin {
  const entries = sharedRuntime(runtime)
  return {
    name: `publish-runtime:${relative(dirname(runtime.file), runtime.file)}`,
    enforce: 'pre',
    load(id) {
      if (id !== runtime.file) return null
      const imports = entries.map(
        ({ module, name }, index) =>
          `import { ${name} as _${index} } from ${JSON.stringify(module)}`,
      )
      const items = entries.map((_, index) => `_${index}`).join(', ')
      // The loader's with what it adds: its build, which every file after it checks first
      // (oneBuild), and its hook for a file of another build.
      const published =
        runtime === LOADER_RUNTIME ? `Object.assign([${items}], extra)` : `[${items}]`
      return `${imports.join('\n')}\nexport const publishRuntime = (extra) => { ${runtime.global} = ${published} }\n`
    },
  }
}

/**
 * For a file loaded after the one that publishes `runtime`: every import of a module named in its
 * list is read from what was published, so the page runs one copy of it (one ApiError class, one
 * set of shown warnings, one Trusted Types policy). Only the names the list carries exist:
 * importing another fails the build.
 */
export function fromRuntime(runtime: RuntimeList): Plugin {
  const entries = sharedRuntime(runtime)
  const PREFIX = `\0runtime:${runtime.global}:`
  const ARRAY = '(array)'
  return {
    name: `from-runtime:${relative(dirname(runtime.file), runtime.file)}`,
    enforce: 'pre',
    async resolveId(source, importer, options) {
      // Relative imports, and the absolute ones a publishing list's own code makes.
      if (source === PREFIX + ARRAY) return source
      if (!importer || !/^[./]/.test(source) || importer.startsWith('\0runtime:')) return null
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true })
      // Claimed by the other list's plugin: the module is read from there (the same copy).
      if (resolved?.id.startsWith('\0runtime:')) return resolved
      if (!resolved || !entries.some(({ module }) => module === resolved.id)) return null
      return `${PREFIX}${resolved.id}`
    },
    load(id) {
      if (!id.startsWith(PREFIX)) return null
      const module = id.slice(PREFIX.length)
      // The array itself, read once however many of its modules a file imports.
      if (module === ARRAY)
        return { code: `export default ${runtime.global}`, moduleSideEffects: false }
      return {
        code: [
          `import shared from ${JSON.stringify(PREFIX + ARRAY)}`,
          ...entries.flatMap((entry, index) =>
            entry.module === module ? [`export const ${entry.name} = shared[${index}]`] : [],
          ),
        ].join('\n'),
        // Reading the array does nothing else: a file that uses none of these names drops them.
        moduleSideEffects: false,
      }
    },
  }
}

/**
 * For `tracking-delivery`: the tracking part with what sends the queue built in, for a page that
 * has something to send at once (src/embed/sending-part.ts gives createSending itself), and
 * without what a panel page asks for ahead of its UI file (src/embed/ahead.ts), which such a
 * page's budget leaves out.
 */
export function deliveryBuiltIn(): Plugin {
  const embed = (file: string) => fileURLToPath(new URL(`../../src/embed/${file}`, import.meta.url))
  const sending = fileURLToPath(new URL('../../src/queue/sending.ts', import.meta.url))
  const replaced: Record<string, string> = {
    [embed('sending-part.ts')]:
      `import { createSending } from ${JSON.stringify(sending)}\nexport const sendingFor = () => createSending\n`,
    [embed('ahead.ts')]:
      'export const sendAhead = () => ({})\nexport const messagesBeside = () => undefined\n',
  }
  return { name: 'delivery-built-in', enforce: 'pre', load: (id) => replaced[id] ?? null }
}

/**
 * For `react` and `element`: every module outside the UI (core, queue, API, stores, and the
 * registry of shared cores) is imported from the esm build's file of the same path instead of
 * being copied in.
 */
export function coreFromEsmBuild(): Plugin {
  const src = fileURLToPath(new URL('../../src/', import.meta.url))
  const ui = `${src}ui/`
  return {
    name: 'core-from-esm-build',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (!importer || !source.startsWith('.')) return null
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true })
      if (!resolved?.id.startsWith(src)) return null
      const inUi = resolved.id.startsWith(ui) && !resolved.id.endsWith('/ui/registry.ts')
      if (inUi || resolved.id.endsWith('/react.ts')) return null
      const path = relative(src, resolved.id).replace(/\.tsx?$/, '.js')
      return { id: `./${path}`, external: true }
    },
  }
}

/**
 * For every file the loader loads (and the files they load): it runs only beside the loader of its
 * own build. Its whole code waits behind one check of the build the loader published; a file of
 * another build runs nothing (a page mixing two builds' files, mid-upgrade, would read the
 * loader's shared modules at the wrong positions), and tells the loader, which says so once.
 */
export function oneBuild(build: string): Plugin {
  const loader = LOADER_RUNTIME.global
  return {
    name: 'one-build',
    outputOptions: (options) => ({
      ...options,
      intro: `if (${loader}?.build !== ${JSON.stringify(build)}) return void ${loader}?.refused?.(${JSON.stringify(build)});`,
    }),
  }
}

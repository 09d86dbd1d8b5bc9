// The plugins that keep one copy of the core on a page: the script tag's tracking file publishes
// the modules src/embed/runtime.ts lists and the files loaded beside it read them from there,
// and the React entry imports the core from the esm build instead of bundling its own.
import { readFileSync } from 'node:fs'
import { dirname, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Plugin } from 'vite'

/**
 * The list in src/embed/runtime.ts, in order: what the tracking file publishes for the files
 * beside it, as one array (no property names to carry), indexed the same on both sides.
 */
function sharedRuntime() {
  const file = fileURLToPath(new URL('../../src/embed/runtime.ts', import.meta.url))
  const lines = readFileSync(file, 'utf8').matchAll(/^export \{([^}]+)\} from '([^']+)'$/gm)
  const entries: Array<{ module: string; name: string }> = []
  for (const [, names = '', from = ''] of lines) {
    const module = resolve(dirname(file), from)
    for (const name of names.split(',').map((part) => part.trim()))
      if (name) entries.push({ module, name })
  }
  return { file, entries }
}
const RUNTIME_GLOBAL = "globalThis[Symbol.for('referral-widget.runtime')]"

/** For `embed`: src/embed/runtime.ts becomes the array the files beside it read. */
export function publishRuntime(): Plugin {
  const { file, entries } = sharedRuntime()
  return {
    name: 'publish-runtime',
    enforce: 'pre',
    load(id) {
      if (id !== file) return null
      const imports = entries.map(
        ({ module, name }, index) =>
          `import { ${name} as _${index} } from ${JSON.stringify(module)}`,
      )
      const list = entries.map((_, index) => `_${index}`).join(', ')
      return `${imports.join('\n')}\nexport const publishRuntime = () => { ${RUNTIME_GLOBAL} = [${list}] }\n`
    },
  }
}

/**
 * For the files loaded beside the script tag (`link`, `ui-<language>`): every import of a module
 * named in src/embed/runtime.ts is read from what the tracking file published, so the page runs
 * one copy of it (one ApiError class, one set of shown warnings). Only the names runtime.ts
 * lists exist: importing another fails the build.
 */
export function fromTrackingFile(): Plugin {
  const { entries } = sharedRuntime()
  const PREFIX = '\0tracking-file:'
  return {
    name: 'from-tracking-file',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (!importer || !source.startsWith('.') || importer.startsWith(PREFIX)) return null
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true })
      if (!resolved || !entries.some(({ module }) => module === resolved.id)) return null
      return `${PREFIX}${resolved.id}`
    },
    load(id) {
      if (!id.startsWith(PREFIX)) return null
      const module = id.slice(PREFIX.length)
      return {
        code: [
          `const shared = ${RUNTIME_GLOBAL}`,
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

// The published files, one build per mode:
//   esm   dist/index.js, dist/headless.js        (the package; dependencies left to the host),
//         one file per module, so a bundler keeps only the modules an app imports
//   react dist/react.js                          (the React entry: its UI and Preact bundled in,
//                                                  the core imported from the esm files, so it
//                                                  shares cores with the other entries)
//   element dist/custom-element.js               (the custom element, likewise: no peer to install
//                                                  in a React, Vue or plain app)
//   server dist/server.js                         (referral-widget/server: one file, no
//                                                  dependency, for Node, Deno, Bun and edge)
//   embed dist/referral-widget.js                 (the script tag; one classic script, all inside)
//   qr    dist/referral-widget-qr.js              (the QR encoder, fetched by the panel only when
//                                                   its QR code control is used; built before the
//                                                   UI files, which carry its SRI hash)
//   cookie dist/referral-widget-cookie.js         (the attribution cookie's module, for a page that
//                                                  sets data-cookie-domain: fetched before tracking)
//   link  dist/referral-widget-link.js            (the rest of the core, for a page without a panel
//                                                  that calls getLink(): fetched on that call)
//   messages-xx dist/referral-widget-messages-xx.js (one language's messages for the UI file,
//                                                   fetched beside it for a page in that language;
//                                                   built before it, which carries their hashes)
//   ui    dist/referral-widget-ui.js              (the script tag's panel, English built in, fetched
//                                                   only when needed; a classic script too, so no
//                                                   CORS is needed)
import { readFileSync } from 'node:fs'
import { dirname, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { defineConfig, type Plugin, type UserConfig } from 'vite'
import pkg from './package.json' with { type: 'json' }
import { keepClientDirective } from './scripts/client-directive.ts'
import { minifyCss } from './scripts/minify-css.ts'

const external = [
  ...Object.keys(pkg.dependencies ?? {}),
  ...Object.keys(pkg.peerDependencies ?? {}),
]
const isExternal = (id: string) => external.some((name) => id === name || id.startsWith(`${name}/`))
// Production JSX whatever NODE_ENV the build runs under (the browser suite builds under vitest's
// NODE_ENV=test, which would otherwise add source locations to every element).
const jsx = { runtime: 'automatic', importSource: 'preact', development: false } as const

const builds: Record<string, UserConfig['build']> = {
  esm: {
    target: 'es2022',
    sourcemap: true,
    minify: false,
    lib: {
      entry: {
        index: 'src/index.ts',
        headless: 'src/headless.ts',
        // Whole, for dist/custom-element.js (built apart, it imports the attribute table from here).
        'core/options': 'src/core/options.ts',
      },
      formats: ['es'],
    },
    rollupOptions: {
      external: isExternal,
      output: { preserveModules: true, preserveModulesRoot: 'src', entryFileNames: '[name].js' },
    },
  },
  // Built apart from the esm entries so that it shares no chunk with them: one self-contained
  // module an edge runtime can load, and the browser entries' chunks stay as they are.
  server: {
    target: 'es2022',
    sourcemap: true,
    minify: false,
    lib: { entry: { server: 'src/server.ts' }, formats: ['es'] },
  },
  react: {
    target: 'es2022',
    sourcemap: true,
    minify: false,
    lib: { entry: { react: 'src/react.ts' }, formats: ['es'] },
    rollupOptions: { external: ['react', ...external.filter((name) => name !== 'preact')] },
  },
  element: {
    target: 'es2022',
    sourcemap: true,
    minify: false,
    lib: {
      entry: {
        'custom-element': 'src/custom-element.ts',
        // These two import the element from dist/custom-element.js (coreFromEsmBuild).
        'custom-element-react': 'src/custom-element-react.ts',
        'custom-element-preact': 'src/custom-element-preact.ts',
      },
      formats: ['es'],
    },
    rollupOptions: { external: external.filter((name) => name !== 'preact') },
  },
  embed: {
    target: 'es2022',
    lib: {
      entry: 'src/embed.ts',
      formats: ['iife'],
      name: 'ReferralWidget',
      fileName: () => 'referral-widget.js',
    },
  },
  qr: {
    target: 'es2022',
    lib: {
      entry: 'src/ui/qr/embed-qr.ts',
      formats: ['iife'],
      name: 'ReferralWidgetQr',
      fileName: () => 'referral-widget-qr.js',
    },
  },
  cookie: {
    target: 'es2022',
    lib: {
      entry: 'src/embed/cookie-part.ts',
      formats: ['iife'],
      name: 'ReferralWidgetCookie',
      fileName: () => 'referral-widget-cookie.js',
    },
  },
  link: {
    target: 'es2022',
    lib: {
      entry: 'src/embed/link-part.ts',
      formats: ['iife'],
      name: 'ReferralWidgetLink',
      fileName: () => 'referral-widget-link.js',
    },
  },
  ui: {
    target: 'es2022',
  },
}

/**
 * The list in src/embed/runtime.ts, in order: what the tracking file publishes for the files
 * beside it, as one array (no property names to carry), indexed the same on both sides.
 */
function sharedRuntime() {
  const file = fileURLToPath(new URL('src/embed/runtime.ts', import.meta.url))
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
function publishRuntime(): Plugin {
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
function fromTrackingFile(): Plugin {
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

/** The stylesheet ships without comments and needless white space. */
function compactStyles(): Plugin {
  return {
    name: 'compact-styles',
    transform(code, id) {
      if (!id.endsWith('/src/ui/styles.ts')) return null
      return code.replace(/`([^`]*)`/g, (_whole, body: string) => `\`${minifyCss(body)}\``)
    },
  }
}

/**
 * For `react` and `element`: every module outside the UI (core, queue, API, stores, and the
 * registry of shared cores) is imported from the esm build's file of the same path instead of
 * being copied in.
 */
function coreFromEsmBuild(): Plugin {
  const src = fileURLToPath(new URL('src/', import.meta.url))
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

/** Replaces one source module's code in a build. */
function replaceModule(name: string, path: string, code: string): Plugin {
  const file = fileURLToPath(new URL(path, import.meta.url))
  return { name, enforce: 'pre', load: (id) => (id === file ? code : null) }
}

/** The import of one built-in language's messages (pt-BR.ts exports ptBR). */
function importMessages(language: string) {
  const file = fileURLToPath(new URL(`src/ui/messages/${language}.ts`, import.meta.url))
  const name = language.replace('-', '')
  return { name, code: `import { ${name} } from ${JSON.stringify(file)}\n` }
}

/** For `ui`: the messages catalog holds English only (the others come in messages files). */
function englishOnly(): Plugin {
  const { name, code } = importMessages('en')
  return replaceModule(
    'english-only',
    'src/ui/messages/catalog.ts',
    `${code}export const CATALOG = { en: ${name} }\n`,
  )
}

/** For `ui`: the QR encoder comes from the QR file beside the script, not a chunk. */
const qrFromScript = () =>
  replaceModule(
    'qr-from-script',
    'src/ui/qr/load.ts',
    `export { loadQr } from ${JSON.stringify(fileURLToPath(new URL('src/ui/qr/load-script.ts', import.meta.url)))}\n`,
  )

/** For `messages-<language>`: src/embed/one-language.ts carries that language's messages. */
function messagesOf(language: string): Plugin {
  const { name, code } = importMessages(language)
  return replaceModule(
    'messages-of-language',
    'src/embed/one-language.ts',
    `${code}export const LANGUAGE = ${JSON.stringify(language)}\nexport const MESSAGES = ${name}\n`,
  )
}

export default defineConfig(({ mode }) => {
  const messagesLanguage = /^messages-([a-z]{2}(?:-[A-Z]{2})?)$/.exec(mode)?.[1]
  if (messagesLanguage) {
    return {
      plugins: [messagesOf(messagesLanguage)],
      define: { 'process.env.NODE_ENV': JSON.stringify('production') },
      publicDir: false,
      build: {
        target: 'es2022',
        lib: {
          entry: 'src/embed/messages-part.ts',
          formats: ['iife'],
          name: 'ReferralWidgetMessages',
          fileName: () => `referral-widget-messages-${messagesLanguage.toLowerCase()}.js`,
        },
        outDir: 'dist',
        emptyOutDir: false,
      },
    }
  }
  if (mode === 'ui') {
    return {
      oxc: { jsx },
      plugins: [englishOnly(), qrFromScript(), fromTrackingFile(), compactStyles()],
      define: {
        'process.env.NODE_ENV': JSON.stringify('production'),
        // The QR file's and the messages files' hashes (scripts/build.mjs builds them first);
        // without one, a script tag loaded with integrity does not load that file at all.
        __REFERRAL_QR_INTEGRITY__: JSON.stringify(process.env.REFERRAL_QR_INTEGRITY ?? ''),
        __MESSAGES_INTEGRITY__: process.env.MESSAGES_INTEGRITY ?? '{}',
      },
      publicDir: false,
      build: {
        ...builds.ui,
        lib: {
          entry: 'src/embed/ui-part.ts',
          formats: ['iife'],
          name: 'ReferralWidgetUi',
          fileName: () => 'referral-widget-ui.js',
        },
        outDir: 'dist',
        emptyOutDir: false,
      },
    }
  }
  const build = builds[mode]
  if (!build)
    throw new Error(
      `Unknown build mode "${mode}": use esm, react, element, server, qr, messages-<language>, ui, cookie, link or embed.`,
    )
  // The sibling files' integrity hashes, computed by scripts/build.mjs before the tracking file.
  const siblings = mode === 'embed' ? (process.env.SIBLING_INTEGRITY ?? '{}') : undefined
  return {
    oxc: { jsx },
    plugins: {
      esm: [keepClientDirective()],
      react: [coreFromEsmBuild(), keepClientDirective()],
      element: [coreFromEsmBuild()],
      link: [fromTrackingFile()],
      cookie: [fromTrackingFile()],
      embed: [publishRuntime()],
    }[mode],
    // The script-tag files run as they are in any page: no bundler will replace this later.
    ...(mode === 'esm' || mode === 'react' || mode === 'element' || mode === 'server'
      ? {}
      : {
          define: {
            'process.env.NODE_ENV': JSON.stringify('production'),
            ...(siblings === undefined ? {} : { __SIBLING_INTEGRITY__: siblings }),
          },
        }),
    publicDir: false,
    build: { ...build, outDir: 'dist', emptyOutDir: false },
  }
})

// The plugins that shape the script tag's panel files: the UI file carries English only and
// fetches the QR encoder from beside it, each messages file carries one language, and the
// stylesheet ships compact.
import { fileURLToPath } from 'node:url'
import type { Plugin } from 'vite'
import { minifyCss } from '../minify-css.ts'

const source = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url))

/** The stylesheet ships without comments and needless white space. */
export function compactStyles(): Plugin {
  return {
    name: 'compact-styles',
    transform(code, id) {
      if (!id.endsWith('/src/ui/styles.ts') && !id.endsWith('/src/ui/launcher/launcher.ts'))
        return null
      return code.replace(/`([^`]*)`/g, (_whole, body: string) => `\`${minifyCss(body)}\``)
    },
  }
}

/** Replaces one source module's code in a build. */
function replaceModule(name: string, path: string, code: string): Plugin {
  const file = source(path)
  return { name, enforce: 'pre', load: (id) => (id === file ? code : null) }
}

/** The import of one built-in language's messages (pt-BR.ts exports ptBR). */
function importMessages(language: string) {
  const file = source(`src/ui/messages/${language}.ts`)
  const name = language.replace('-', '')
  return { name, code: `import { ${name} } from ${JSON.stringify(file)}\n` }
}

/** For `ui`: the messages catalog holds English only (the others come in messages files). */
export function englishOnly(): Plugin {
  const { name, code } = importMessages('en')
  return replaceModule(
    'english-only',
    'src/ui/messages/catalog.ts',
    `${code}export const CATALOG = { en: ${name} }\n`,
  )
}

/** For `ui`: the QR encoder comes from the QR file beside the script, not a chunk. */
export const qrFromScript = () =>
  replaceModule(
    'qr-from-script',
    'src/ui/qr/load.ts',
    `export { loadQr } from ${JSON.stringify(source('src/ui/qr/load-script.ts'))}\n`,
  )

/** For `messages-<language>`: src/embed/one-language.ts carries that language's messages. */
export function messagesOf(language: string): Plugin {
  const { name, code } = importMessages(language)
  return replaceModule(
    'messages-of-language',
    'src/embed/one-language.ts',
    `${code}export const LANGUAGE = ${JSON.stringify(language)}\nexport const MESSAGES = ${name}\n`,
  )
}

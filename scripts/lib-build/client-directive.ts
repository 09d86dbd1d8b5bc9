// A build plugin for the package's ESM files (vite.lib.config.ts, modes esm and react).
import type { Plugin } from 'vite'

/** A 'use client' (or "use client") directive heading a module, after comments only. */
const CLIENT_DIRECTIVE =
  /^(?:\s|\/\/[^\n]*\n|\/\*[\s\S]*?\*\/)*(['"])use client\1;?[^\S\n]*(?:\n|$)/

/**
 * A source module that starts with 'use client' (a component, a hook, or an entry re-exporting
 * them) keeps it in the file it is built into, as its first statement: React Server Components
 * bundlers (Next.js's App Router) then render it on the client only. Rolldown would otherwise
 * warn and may move or drop it, so it is taken out of the module and put back as the chunk's
 * banner. The core and the server entry carry none: they run on servers too.
 */
export function keepClientDirective(): Plugin {
  const clientModules = new Set<string>()
  return {
    name: 'keep-client-directive',
    transform: {
      order: 'pre',
      handler(code, id) {
        const match = CLIENT_DIRECTIVE.exec(code)
        if (!match) return null
        clientModules.add(id)
        // Blank, not removed: the source map's lines stay where they were.
        const directive = match[0].slice(match[0].indexOf(match[1] ?? "'"))
        const start = match[0].length - directive.length
        return {
          code: `${code.slice(0, start)}${directive.replace(/[^\n]/g, ' ')}${code.slice(match[0].length)}`,
          map: null,
        }
      },
    },
    banner(chunk) {
      return chunk.moduleIds.some((id) => clientModules.has(id)) ? "'use client';" : ''
    },
  }
}

// A second minifier over the script tag's files: terser after the build's own, round after round
// while it still makes the file smaller (gzip, as the budgets measure it), each file a few hundred
// bytes smaller than one minifier alone gives. The page downloads these files as they are,
// so every byte here is one a visitor's browser does not fetch.
import { gzipSync } from 'node:zlib'
import { minify } from 'terser'
import type { Plugin } from 'vite'

/** A new object each time: terser writes its defaults into the options it is given. */
const options = () => ({
  ecma: 2020 as const,
  compress: { passes: 3, pure_getters: true, unsafe_arrows: true },
  mangle: { toplevel: true },
})

/** What the budgets measure: gzip at level 9. */
const gzipped = (code: string) => gzipSync(code, { level: 9 }).length

export function squeeze(): Plugin {
  return {
    name: 'squeeze',
    enforce: 'post',
    async generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue
        for (let round = 0; round < 4; round++) {
          const squeezed = (await minify(chunk.code, options())).code
          if (squeezed === undefined || gzipped(squeezed) >= gzipped(chunk.code)) break
          chunk.code = squeezed
        }
      }
    },
  }
}

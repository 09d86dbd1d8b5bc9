// What each module costs the script tag: the tracking file is built once as it is, then once
// without each of its modules (left external), and the gzip difference is printed, largest
// first. The differences overlap (a module's own imports go with it), so they do not add up to
// the total. `node scripts/module-costs.mjs [embed|ui-en]` (default embed).
import { gzipSync } from 'node:zlib'
import { build } from 'vite'

const mode = process.argv[2] ?? 'embed'

async function gzipBytes(leaveOut) {
  const modules = []
  const result = await build({
    configFile: 'vite.lib.config.ts',
    mode,
    logLevel: 'silent',
    build: {
      write: false,
      rollupOptions: {
        external: leaveOut ? (id) => id === leaveOut : undefined,
        output: { globals: () => 'left_out' },
      },
    },
    plugins: [
      {
        name: 'list-modules',
        generateBundle(_, bundle) {
          for (const chunk of Object.values(bundle))
            modules.push(...Object.keys(chunk.modules ?? {}))
        },
      },
    ],
  })
  const output = (Array.isArray(result) ? result[0] : result).output[0]
  return { gzip: gzipSync(output.code, { level: 9 }).length, modules }
}

const whole = await gzipBytes(null)
const rows = []
for (const id of whole.modules) {
  if (id.endsWith('.css') || id.startsWith('\0')) continue
  rows.push([whole.gzip - (await gzipBytes(id)).gzip, id.replace(`${process.cwd()}/`, '')])
}
rows.sort((a, b) => b[0] - a[0])
console.log(`${mode}: ${whole.gzip} B gzip`)
for (const [bytes, id] of rows) console.log(`${String(bytes).padStart(7)} B  ${id}`)

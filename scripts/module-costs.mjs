// What each module costs a script-tag file: the file is built once as it is, then once without
// each of its modules (left external), and the gzip difference is printed, largest first. The
// differences overlap (a module's own imports go with it), so they do not add up to the total.
// `node scripts/module-costs.mjs [embed|tracking|tracking-delivery|ui|banner|link]` (default
// tracking-delivery: the tracking part of a referred arrival; embed is the loader).
//
// `--by-job` (`npm run size:jobs`): that file without each job's modules at once, and without all
// of them, to show what the rest of the file costs whatever those jobs weigh.
import { gzipSync } from 'node:zlib'
import { build } from 'vite'

const byJob = process.argv.includes('--by-job')
const mode = process.argv.slice(2).find((arg) => !arg.startsWith('--')) ?? 'tracking-delivery'

/** The tracking part's modules by job (src/, as in .dependency-cruiser.cjs's layers). */
const JOBS = {
  'delivery: send pass, chunk store, delivery state, sender, API client, clock, retry': [
    'queue/queue.ts',
    'queue/chunks.ts',
    'queue/delivery.ts',
    'queue/sender.ts',
    'api/client.ts',
    'api/clock.ts',
    'api/retry.ts',
  ],
  'the later part and the files beside: loader, siblings, shared runtime, panel attributes, languages':
    [
      'embed/later.ts',
      'embed/siblings.ts',
      'embed/runtime.ts',
      'embed/ui-attributes.ts',
      'ui/messages/languages.ts',
    ],
  'option checks: the option table, the script-tag attributes, key checks': [
    'core/options.ts',
    'embed/attributes.ts',
    'core/keys.ts',
  ],
}

/** The file's gzip size with `leaveOut` (a module id, a set of them, or null) left external. */
async function gzipBytes(leaveOut) {
  const modules = []
  const result = await build({
    configFile: 'vite.lib.config.ts',
    mode,
    logLevel: 'silent',
    build: {
      write: false,
      rollupOptions: {
        external:
          leaveOut === null
            ? undefined
            : (id) => (typeof leaveOut === 'string' ? id === leaveOut : leaveOut.has(id)),
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
if (byJob) {
  const ids = (files) => new Set(files.map((file) => `${process.cwd()}/src/${file}`))
  console.log(`${mode}: ${whole.gzip} B gzip`)
  for (const [job, files] of Object.entries(JOBS)) {
    const cost = whole.gzip - (await gzipBytes(ids(files))).gzip
    console.log(`${String(cost).padStart(7)} B  ${job}`)
  }
  const rest = (await gzipBytes(ids(Object.values(JOBS).flat()))).gzip
  console.log(`${String(rest).padStart(7)} B  everything else (without all three)`)
  process.exit(0)
}
const rows = []
for (const id of whole.modules) {
  if (id.endsWith('.css') || id.startsWith('\0')) continue
  rows.push([whole.gzip - (await gzipBytes(id)).gzip, id.replace(`${process.cwd()}/`, '')])
}
rows.sort((a, b) => b[0] - a[0])
console.log(`${mode}: ${whole.gzip} B gzip`)
for (const [bytes, id] of rows) console.log(`${String(bytes).padStart(7)} B  ${id}`)

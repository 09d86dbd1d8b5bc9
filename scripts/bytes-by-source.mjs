// Which source files the minified script-tag file's bytes come from (via its source map):
// minified bytes per file and each file's share of the gzip total. `node scripts/bytes-by-source.mjs [embed|ui-en]`
import { gzipSync } from 'node:zlib'
import { SourceMapConsumer } from 'source-map-js'
import { build } from 'vite'

const mode = process.argv[2] ?? 'embed'
const result = await build({
  configFile: 'vite.lib.config.ts',
  mode,
  logLevel: 'silent',
  build: { write: false, sourcemap: true },
})
const output = (Array.isArray(result) ? result[0] : result).output[0]
const code = output.code
const map = new SourceMapConsumer(output.map)
const lines = code.split('\n')
const segments = new Map()
const mappings = []
map.eachMapping((m) => mappings.push(m))
mappings.sort((a, b) => a.generatedLine - b.generatedLine || a.generatedColumn - b.generatedColumn)
for (let i = 0; i < mappings.length; i++) {
  const m = mappings[i]
  const next = mappings[i + 1]
  const line = lines[m.generatedLine - 1]
  const end = next && next.generatedLine === m.generatedLine ? next.generatedColumn : line.length
  const text = line.slice(m.generatedColumn, end)
  const source = (m.source ?? '?').replace(/^.*?\/(src|node_modules)\//, '$1/')
  segments.set(source, (segments.get(source) ?? '') + text)
}
const total = gzipSync(code, { level: 9 }).length
const totalBytes = code.length
const rows = [...segments].map(([source, text]) => [
  source,
  text.length,
  Math.round((text.length / totalBytes) * total),
])
rows.sort((a, b) => b[1] - a[1])
console.log(`${mode}: ${totalBytes} B minified, ${total} B gzip`)
for (const [source, bytes, share] of rows)
  console.log(`${String(bytes).padStart(7)} B  ~${String(share).padStart(5)} B gz  ${source}`)

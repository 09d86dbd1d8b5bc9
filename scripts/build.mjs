// Builds the published files: the ESM package, the script tag, and its UI in each built-in
// language. `--script-tag` builds only the script-tag files (what `npm start` serves).
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { build } from 'vite'

// The same list as src/ui/messages/languages.ts (a test keeps the two equal).
const LANGUAGES = ['en', 'de', 'fr', 'es', 'ja', 'ar', 'pt-BR', 'it', 'nl', 'pl', 'zh-CN', 'ko']
const scriptTagOnly = process.argv.includes('--script-tag')
const sri = (file) =>
  `sha384-${createHash('sha384')
    .update(readFileSync(`dist/${file}`))
    .digest('base64')}`

// The QR file comes before the UI files: they carry its hash, to pin it as the script tag is.
const modes = [...(scriptTagOnly ? [] : ['esm']), 'embed', 'qr']
for (const mode of modes) {
  await build({ configFile: 'vite.lib.config.ts', mode, logLevel: 'warn' })
}
process.env.REFERRAL_QR_INTEGRITY = sri('referral-widget-qr.js')
for (const language of LANGUAGES) {
  const mode = `ui-${language}`
  await build({ configFile: 'vite.lib.config.ts', mode, logLevel: 'warn' })
  modes.push(mode)
}
console.log(`built: ${modes.join(', ')}`)

// Subresource Integrity: the hash of each script-tag file, printed for the release notes and
// written to dist/integrity.json, for <script … integrity="sha384-…" crossorigin="anonymous">.
const integrity = {}
for (const file of readdirSync('dist').filter((name) => /^referral-widget.*\.js$/.test(name))) {
  integrity[file] = sri(file)
}
writeFileSync('dist/integrity.json', `${JSON.stringify(integrity, null, 2)}\n`)
if (!scriptTagOnly) {
  console.log('Subresource Integrity (dist/integrity.json):')
  for (const [file, hash] of Object.entries(integrity)) console.log(`  ${file.padEnd(28)} ${hash}`)
}

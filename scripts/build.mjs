// Builds the published files: the ESM package, the server entry, the script tag, and its UI in
// each built-in language. `--script-tag` builds only the script-tag files (what `npm start` serves).
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { build } from 'vite'

const LANGUAGES = ['en', 'de', 'fr', 'es', 'ja', 'ar']
const scriptTagOnly = process.argv.includes('--script-tag')
// The files beside the script tag's file first: their hashes are built into it, so a tag
// carrying `integrity` pins every file it loads.
const siblings = LANGUAGES.map((language) => `ui-${language}`)
const modes = [...(scriptTagOnly ? [] : ['esm', 'react', 'server']), ...siblings, 'embed']
const hash = (file, algorithm) =>
  `${algorithm}-${createHash(algorithm)
    .update(readFileSync(`dist/${file}`))
    .digest('base64')}`
const scriptFiles = () => readdirSync('dist').filter((name) => /^referral-widget.*\.js$/.test(name))
for (const mode of modes) {
  if (mode === 'embed') {
    // sha256 keeps each hash the tracking file carries short; the browser checks it the same.
    const pins = Object.fromEntries(
      scriptFiles()
        .filter((file) => file !== 'referral-widget.js')
        .map((file) => [file, hash(file, 'sha256')]),
    )
    process.env.SIBLING_INTEGRITY = JSON.stringify(pins)
  }
  await build({ configFile: 'vite.lib.config.ts', mode, logLevel: 'warn' })
}
console.log(`built: ${modes.join(', ')}`)

// Subresource Integrity: the hash of each script-tag file, printed for the release notes and
// written to dist/integrity.json, for <script … integrity="sha384-…" crossorigin="anonymous">.
const integrity = {}
for (const file of scriptFiles()) integrity[file] = hash(file, 'sha384')
writeFileSync('dist/integrity.json', `${JSON.stringify(integrity, null, 2)}\n`)
if (!scriptTagOnly) {
  console.log('Subresource Integrity (dist/integrity.json):')
  for (const [file, hash] of Object.entries(integrity)) console.log(`  ${file.padEnd(28)} ${hash}`)
}

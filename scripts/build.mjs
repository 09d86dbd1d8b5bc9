// Builds the published files: the ESM package, the server entry, the script tag, and its UI in
// each built-in language. `--script-tag` builds only the script-tag files (what `npm start` serves).
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { build } from 'vite'
import pkg from '../package.json' with { type: 'json' }
import { buildId as buildIdOf } from './lib-build/inputs.mjs'

// The same list as src/ui/messages/languages.ts (a test keeps the two equal).
const LANGUAGES = ['en', 'de', 'fr', 'es', 'ja', 'ar', 'pt-BR', 'it', 'nl', 'pl', 'zh-CN', 'ko']
const scriptTagOnly = process.argv.includes('--script-tag')
const hash = (file, algorithm) =>
  `${algorithm}-${createHash(algorithm)
    .update(readFileSync(`dist/${file}`))
    .digest('base64')}`
const scriptFiles = () => readdirSync('dist').filter((name) => /^referral-widget.*\.js$/.test(name))
/** The files matching `pattern` and their hashes, as JSON; sha256 keeps each hash a file carries
 * short (the browser checks it the same). */
const pins = (pattern) =>
  JSON.stringify(
    Object.fromEntries(
      scriptFiles()
        .filter((file) => pattern.test(file))
        .map((file) => [file, hash(file, 'sha256')]),
    ),
  )

// Pinned from the inside out: the QR file and the messages files first (the UI file carries
// their hashes), then the UI, launcher, cookie, outbound, checkout, link, debug and tracking files, then the
// pins file (it carries theirs), then the loader (it carries the pins file's), so a tag with
// `integrity` pins every file it loads, and each file the files it loads.
const modes = [
  ...(scriptTagOnly ? [] : ['esm', 'react', 'element', 'server']),
  'qr',
  ...LANGUAGES.filter((language) => language !== 'en').map((language) => `messages-${language}`),
  'ui',
  'banner',
  'launcher',
  'cookie',
  'outbound',
  'checkout',
  'link',
  'checks',
  'debug',
  'delivery',
  'tracking',
  'tracking-delivery',
  'pins',
  'embed',
]
// The build the script-tag files belong to: each runs only beside the loader of the same one.
const buildId = buildIdOf()
process.env.REFERRAL_BUILD = buildId
for (const mode of modes) {
  if (mode === 'ui') {
    process.env.REFERRAL_QR_INTEGRITY = hash('referral-widget-qr.js', 'sha384')
    const messages = scriptFiles().filter((file) => file.startsWith('referral-widget-messages-'))
    process.env.MESSAGES_INTEGRITY = JSON.stringify(
      Object.fromEntries(messages.map((file) => [file, hash(file, 'sha256')])),
    )
  }
  // The pins file carries the hash of every file the loader and the tracking parts load; the
  // loader that file's alone, so an unpinned page downloads no hash at all.
  if (mode === 'pins')
    process.env.PINS = pins(
      /^referral-widget-(tracking|tracking-delivery|delivery|ui|banner|launcher|link|cookie|outbound|checkout|checks|debug)\.js$/,
    )
  if (mode === 'embed') process.env.PINS_INTEGRITY = hash('referral-widget-pins.js', 'sha256')
  await build({ configFile: 'vite.lib.config.ts', mode, logLevel: 'warn' })
}
console.log(`built: ${modes.join(', ')}`)

// Subresource Integrity: the hash of each script-tag file, printed for the release notes and
// written to dist/integrity.json, for <script … integrity="sha384-…" crossorigin="anonymous">.
const integrity = {}
for (const file of scriptFiles()) integrity[file] = hash(file, 'sha384')
writeFileSync('dist/integrity.json', `${JSON.stringify(integrity, null, 2)}\n`)
// The build, for the versioned URL a site pastes (/v<build>/referral-widget.js) and for support.
writeFileSync('dist/build.json', `${JSON.stringify({ version: pkg.version, build: buildId })}\n`)
if (!scriptTagOnly) {
  console.log('Subresource Integrity (dist/integrity.json):')
  const width = Math.max(...Object.keys(integrity).map((file) => file.length))
  for (const [file, hash] of Object.entries(integrity))
    console.log(`  ${file.padEnd(width)}  ${hash}`)
}

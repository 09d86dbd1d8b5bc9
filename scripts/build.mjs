// Builds the published files: the ESM package, the script tag, and its UI in each built-in
// language. `--script-tag` builds only the script-tag files (what `npm start` serves).
import { build } from 'vite'

const LANGUAGES = ['en', 'de', 'fr', 'es', 'ja', 'ar']
const scriptTagOnly = process.argv.includes('--script-tag')
const modes = [
  ...(scriptTagOnly ? [] : ['esm']),
  'embed',
  ...LANGUAGES.map((language) => `ui-${language}`),
]
for (const mode of modes) {
  await build({ configFile: 'vite.lib.config.ts', mode, logLevel: 'warn' })
}
console.log(`built: ${modes.join(', ')}`)

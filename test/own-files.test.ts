// The one list of the files beside the loader (src/shared/trusted-script-url.ts): the Trusted
// Types policy lets the widget load exactly these, and the local service serves exactly these.
// Held to every file the build makes (scripts/sizes.mjs names each), so a file added or gone
// changes the list with it.
import { expect, it } from 'vitest'
import { isScriptFile } from '../demo/service/scripts.ts'
import { ARTIFACTS } from '../scripts/sizes.mjs'
import { OWN_FILE } from '../src/shared/trusted-script-url.ts'

const LOADER = 'referral-widget.js'
const beside = Object.keys(ARTIFACTS).filter((file) => file !== LOADER)

it('names every file the build makes beside the loader, each language included', () => {
  expect(beside.filter((file) => !OWN_FILE.test(file))).toEqual([])
  for (const language of ['de', 'pt-br', 'zh-cn'])
    expect(OWN_FILE.test(`referral-widget-messages-${language}.js`)).toBe(true)
})

it('names nothing else: not the loader, nor another script', () => {
  for (const name of [
    LOADER,
    'referral-widget-evil.js',
    'referral-widget-ui.js.map',
    '../referral-widget-ui.js',
    'referral-widget-messages-english.js',
  ])
    expect(OWN_FILE.test(name), name).toBe(false)
})

it('is what the local service serves, with the loader', () => {
  for (const file of Object.keys(ARTIFACTS)) expect(isScriptFile(file), file).toBe(true)
  expect(isScriptFile('index.js')).toBe(false)
})

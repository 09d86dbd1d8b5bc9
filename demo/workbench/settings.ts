// The widget settings QA picks, kept in the page's #hash so a configuration can be reloaded or
// shared, and what they become: the script-tag frame's address, the embed code, the landing page.

import type { Theme } from '../../src/core/create-referral.ts'
import { parsePublicKey } from '../../src/core/keys.ts'
import { CAMPAIGN_ID_PATTERN } from '../service/schemas.ts'
import type { Scope } from './api.ts'

export interface KeyChoice {
  value: string
  label: string
  /** The organization and mode whose campaigns the key sees; none for a refused key. */
  scope: Scope | null
}

/** Not a real key: any sk_ key is refused by the widget before anything is sent. */
export const SECRET_KEY_EXAMPLE = 'sk_test_notARealSecretKey'
export const MALFORMED_KEY_EXAMPLE = 'pk_tset_acme'

export const KEY_CHOICES: readonly KeyChoice[] = [
  {
    value: 'pk_test_acme',
    label: 'pk_test_acme · Acme, test',
    scope: { org: 'acme', mode: 'test' },
  },
  {
    value: 'pk_live_acme',
    label: 'pk_live_acme · Acme, live',
    scope: { org: 'acme', mode: 'live' },
  },
  {
    value: 'pk_test_globex',
    label: 'pk_test_globex · Globex, test',
    scope: { org: 'globex', mode: 'test' },
  },
  {
    value: 'pk_live_globex',
    label: 'pk_live_globex · Globex, live',
    scope: { org: 'globex', mode: 'live' },
  },
  { value: MALFORMED_KEY_EXAMPLE, label: `${MALFORMED_KEY_EXAMPLE} · malformed key`, scope: null },
  { value: SECRET_KEY_EXAMPLE, label: 'sk_test_… · a secret key (refused)', scope: null },
]

export const LOCALES: ReadonlyArray<readonly [string, string]> = [
  ['', 'Browser default'],
  ['en-US', 'English (US)'],
  ['en-GB', 'English (UK)'],
  ['de-DE', 'Deutsch'],
  ['fr-FR', 'Français'],
  ['es-ES', 'Español'],
  ['ja-JP', '日本語'],
  ['ar-EG', 'العربية (right to left)'],
  ['pt-BR', 'Português (Brasil)'],
  ['it-IT', 'Italiano'],
  ['nl-NL', 'Nederlands'],
  ['pl-PL', 'Polski'],
  ['zh-CN', '简体中文'],
  ['ko-KR', '한국어'],
]

export const THEMES: readonly Theme[] = ['auto', 'light', 'dark']

export interface Settings {
  key: string
  /** A camp_… id, or '' for the newest active campaign (no data-campaign). */
  campaign: string
  /** The signed-in referrer; '' when signed out. */
  user: string
  /** '' for the browser's language. */
  locale: string
  theme: Theme
  consentRequired: boolean
}

export const DEFAULT_SETTINGS: Settings = {
  key: 'pk_test_acme',
  campaign: '',
  user: 'user_123',
  locale: '',
  theme: 'auto',
  consentRequired: false,
}

export const keyChoice = (key: string): KeyChoice | undefined =>
  KEY_CHOICES.find((choice) => choice.value === key)

export function readSettings(hash: string): Settings {
  const params = new URLSearchParams(hash.replace(/^#/, ''))
  const settings = { ...DEFAULT_SETTINGS }
  const key = params.get('key')
  if (key !== null && keyChoice(key)) settings.key = key
  const campaign = params.get('campaign')
  if (campaign !== null && CAMPAIGN_ID_PATTERN.test(campaign)) settings.campaign = campaign
  const user = params.get('user')
  if (user !== null) settings.user = user.slice(0, 128)
  const locale = params.get('locale')
  if (locale !== null && LOCALES.some(([value]) => value === locale)) settings.locale = locale
  const theme = params.get('theme')
  const known = THEMES.find((value) => value === theme)
  if (known) settings.theme = known
  settings.consentRequired = params.get('consent') === 'required'
  return settings
}

export function settingsHash(settings: Settings): string {
  const params = new URLSearchParams({ key: settings.key, user: settings.user })
  if (settings.campaign) params.set('campaign', settings.campaign)
  if (settings.locale) params.set('locale', settings.locale)
  if (settings.theme !== 'auto') params.set('theme', settings.theme)
  if (settings.consentRequired) params.set('consent', 'required')
  return `#${params}`
}

/** The page share links point to: the demo's visitor page, on the visitor's own origin. */
export function landingUrl(visitorOrigin: string, settings: Settings): string {
  const url = new URL('/demo/visitor.html', visitorOrigin)
  url.searchParams.set('key', settings.key)
  if (settings.campaign) url.searchParams.set('campaign', settings.campaign)
  if (settings.locale) url.searchParams.set('locale', settings.locale)
  if (settings.theme !== 'auto') url.searchParams.set('theme', settings.theme)
  if (settings.consentRequired) url.searchParams.set('consent', 'required')
  return url.toString()
}

/** The data- attributes of the script tag, in the order the embed code shows them. */
export function scriptAttributes(settings: Settings, landing: string): Array<[string, string]> {
  const attributes: Array<[string, string]> = [['key', settings.key]]
  if (settings.campaign) attributes.push(['campaign', settings.campaign])
  if (settings.user) attributes.push(['user-id', settings.user])
  attributes.push(['landing-url', landing])
  if (settings.locale) attributes.push(['locale', settings.locale])
  if (settings.theme !== 'auto') attributes.push(['theme', settings.theme])
  if (settings.consentRequired) attributes.push(['consent', 'required'])
  return attributes
}

export function frameUrl(settings: Settings, landing: string, generation: number): string {
  const params = new URLSearchParams({ key: settings.key, landing })
  if (settings.campaign) params.set('campaign', settings.campaign)
  if (settings.user) params.set('user', settings.user)
  if (settings.locale) params.set('locale', settings.locale)
  if (settings.theme !== 'auto') params.set('theme', settings.theme)
  if (settings.consentRequired) params.set('consent', 'required')
  params.set('generation', String(generation))
  return `/demo/frame.html?${params}`
}

export function embedSnippet(settings: Settings, landing: string): string {
  const attributes = scriptAttributes(settings, landing)
    .map(([name, value]) => `\n        data-${name}="${value.replaceAll('"', '&quot;')}"`)
    .join('')
  return `<div data-referral-widget></div>
<script async src="${location.origin}/referral-widget.js"${attributes}></script>`
}

/** The storage namespace the widget uses for a key (`referral:test:1a2b3c:`), if it takes it. */
export function namespaceOf(key: string): string | null {
  try {
    const parsed = parsePublicKey(key)
    return `referral:${parsed.mode}:${parsed.hash}:`
  } catch {
    return null
  }
}

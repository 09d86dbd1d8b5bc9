// What the files loaded beside the script tag (the UI file, the link file) take from the
// tracking file instead of carrying their own copies: the same error classes (so `instanceof`
// holds across files), the same once-only warnings, the same option checks and stored shapes.
// The tracking file publishes exactly these under RUNTIME; the sibling builds read every import
// of these modules from there (vite.lib.config.ts, `fromTrackingFile`), and a sibling importing
// a name this list does not carry fails its build. One `export { … } from '…'` line per module.
export { attributionWindowDays } from '../api/wire.ts'
export { DEFAULT_ATTRIBUTION_DAYS } from '../core/attribution.ts'
export { checkOption } from '../core/options.ts'
export { linkCacheName, StoredCampaign, StoredLink } from '../core/persisted.ts'
export { ApiError, ConfigError, errorOf, messageOf } from '../shared/errors.ts'
export { error, resetWarnings, warn, warnOnce } from '../shared/log.ts'
export { languageOf, pickLanguage, UI_LANGUAGES, uiFile } from '../ui/messages/languages.ts'

export const RUNTIME = Symbol.for('referral-widget.runtime')

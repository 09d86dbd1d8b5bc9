// What the files loaded beside the script tag (the UI file, the link file) take from the
// tracking file instead of carrying their own copies: the same error classes (so `instanceof`
// holds across files), the same once-only warnings, the same option checks and stored shapes,
// the same Trusted Types policy (a page creates a policy name once).
// The script-tag build turns this list into one array the tracking file publishes
// (vite.lib.config.ts, `publishRuntime`); the sibling builds read every import of these modules
// from it by position (`fromTrackingFile`), and a sibling importing a name this list does not
// carry fails its build. One `export { … } from '…'` per module, nothing else.
export { anything, expectShape } from '../api/client.ts'
export { campaignPath, LINKS_PATH, linkBody } from '../api/paths.ts'
export {
  attributionWindowDays,
  CAMPAIGN_ID_PATTERN,
  CLIENT_ID_PATTERN,
  CODE_PATTERN,
  CURRENCY_PATTERN,
  ISO_TIMESTAMP_PATTERN,
  LINK_ID_PATTERN,
  MAX_ATTRIBUTION_DAYS,
  MAX_SUMMARY_RECENT,
} from '../api/wire.ts'
export { DEFAULT_ATTRIBUTION_DAYS, REMEMBERED } from '../core/attribution.ts'
export { checkOption, quote } from '../core/options.ts'
export { linkCacheName, v } from '../core/persisted.ts'
export { ApiError, ConfigError, errorOf, messageOf } from '../shared/errors.ts'
export { toJson } from '../shared/json.ts'
export { error, resetWarnings, warn, warnOnce } from '../shared/log.ts'
export { array, boolean, literal, number, object, oneOf, string } from '../shared/parse.ts'
export { scriptUrl } from '../shared/trusted-script-url.ts'
export { languageOf, messagesFile, pickLanguage, UI_LANGUAGES } from '../ui/messages/languages.ts'

/** Replaced in the script-tag build; elsewhere (tests, the ESM package) there is nothing to share. */
export const publishRuntime = () => {}

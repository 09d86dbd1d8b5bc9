// What the files loaded after the tracking part (the UI file, the link, cookie and outbound files)
// take from it instead of carrying their own copies: the same error classes (so `instanceof`
// holds across files), the same once-only warnings, the same option checks,
// the same Trusted Types policy (a page creates a policy name once; the tracking part has it from
// the loader, loader-runtime.ts). The tracking part's build turns this list into one array it
// publishes (`publishRuntime` in scripts/lib-build/runtime-plugins.ts); the later files' builds
// read every import of these modules from it by position (`fromRuntime`), and a file importing a
// name this list does not carry fails its build. One `export { … } from '…'` per module, nothing
// else.
export { anything, expectShape } from '../api/client.ts'
export {
  CAMPAIGN_ID_PATTERN,
  CLIENT_ID_PATTERN,
  CODE_PATTERN,
  ISO_TIMESTAMP_PATTERN,
  KEY_PATTERN,
  MAX_ATTRIBUTION_DAYS,
  MAX_BODY_BYTES,
  MAX_EVENTS_PER_REQUEST,
} from '../api/wire.ts'
export { DEFAULT_ATTRIBUTION_DAYS, REMEMBERED } from '../core/attribution.ts'
export { withoutParams } from '../core/clean-url.ts'
export { accepted, checked, quote, refusal } from '../core/options.ts'
export { BEACON_KEY_BYTES, ENVELOPE_BYTES, sizeOf, stripped } from '../queue/chunks.ts'
export { ApiError, ConfigError, errorOf, messageOf } from '../shared/errors.ts'
export { fromJson, toJson } from '../shared/json.ts'
export { array, boolean, literal, number, object, oneOf, parse, string } from '../shared/parse.ts'

/** Replaced in the tracking part's build; elsewhere (tests, the ESM package) there is nothing to share. */
export const publishRuntime = (_extra?: object) => {}

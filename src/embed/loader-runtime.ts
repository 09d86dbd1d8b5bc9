// What the loader (referral-widget.js) shares with the files it loads rather than each carrying a
// copy: the command function's parts, the sibling loader with the hashes it carries, the option
// values the loader reads its tag with, the once-only console, and the one Trusted Types policy a
// page may create. The loader's build turns this list into one array it publishes
// (`publishRuntime` in scripts/lib-build/runtime-plugins.ts); the tracking part's and the other
// files' builds read every import of these modules from it by position (`fromRuntime`), and a
// file importing a name this list does not carry fails its build. One `export { … } from '…'`
// per module, nothing else.

export { CONSENT_GIVEN, hasStoredConsent } from '../core/consent-record.ts'
export { readReferralCode } from '../core/referral-url.ts'
export { shortHash } from '../core/short-hash.ts'
export { DEBUG_SWITCH, debugAsked } from '../shared/debug-switch.ts'
export { error, info, warn, warnOnce } from '../shared/log.ts'
export { own } from '../shared/own.ts'
export { ownScript, policyRefused } from '../shared/trusted-script-url.ts'
export { install, methodsOf } from './commands.ts'
export { GLOBAL_NAME, readKey } from './loader/tag.ts'
export { addsWidget, PAGE_CHANGES } from './page-watch.ts'
export { handOver, loadSibling, notLoaded, UI_FILE, uiFile } from './siblings.ts'

/** Replaced in the loader's build; elsewhere (tests, the ESM package) there is nothing to share. */
export const publishRuntime = (_extra?: object) => {}

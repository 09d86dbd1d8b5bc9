// What the loader (referral-widget.js) shares with the files it loads rather than each carrying a
// copy: the command function's parts, the sibling loader with the hashes it carries, the option
// values the loader reads its tag with, the once-only console, and the one Trusted Types policy a
// page may create. The loader's build turns this list into one array it publishes
// (`publishRuntime` in scripts/lib-build/runtime-plugins.ts); the tracking part's and the other
// files' builds read every import of these modules from it by position (`fromRuntime`), and a
// file importing a name this list does not carry fails its build. One `export { … } from '…'`
// per module, nothing else. A few lines the loader uses and keeps out of the list, since it
// inlines them where published they would cost it bytes, are carried by the files after it too:
// the page watch (page-watch.ts), the consent record (consent-record.ts) and the debug switch
// (debug-switch.ts), none of which holds state a page must share.

export { readReferralCode } from '../core/referral-url.ts'
export { shortHash } from '../core/short-hash.ts'
export { error, info, warn, warnOnce } from '../shared/log.ts'
export { own } from '../shared/own.ts'
export { ownScript } from '../shared/trusted-script-url.ts'
export { install, methodsOf } from './commands.ts'
export { GLOBAL_NAME, readKey } from './loader/tag.ts'
export { handOver, loadSibling, notLoaded, UI_FILE, uiFile } from './siblings.ts'

/** Replaced in the loader's build; elsewhere (tests, the ESM package) there is nothing to share. */
export const publishRuntime = (_extra?: object) => {}

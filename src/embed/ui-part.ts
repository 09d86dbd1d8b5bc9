// The script tag's UI file (`referral-widget-ui.js`): loaded only when the page has a panel or
// banner element. It carries the panel and the banner, in English, with the rest of the core
// they read (campaign, link, stores); a page in another built-in language gets that language's
// messages file beside it (sent ahead by the tracking file, or fetched here with the hash this
// file carries when the tag is pinned). It loads the QR file beside it when the QR control is
// used.
import { attachExtras } from '../core/extras.ts'
import type { ReferralInternals } from '../core/types.ts'
import { error as logError } from '../shared/log.ts'
import { BUILT_IN } from '../ui/messages/index.ts'
import { messagesFile } from '../ui/messages/languages.ts'
import { mountBanner, mountPanel } from '../ui/mount.ts'
import { configureQrScript } from '../ui/qr/load-script.ts'
import { handOver, loadSibling, type MountAllOptions } from './siblings.ts'
import { readUiAttributes } from './ui-attributes.ts'

/** Subresource Integrity hashes of the messages files, by name; filled in by the build. */
declare const __MESSAGES_INTEGRITY__: Record<string, string> | undefined
const MESSAGE_HASHES: Record<string, string> =
  typeof __MESSAGES_INTEGRITY__ === 'undefined' ? {} : __MESSAGES_INTEGRITY__

// This file's own address, read while it runs: the QR and messages files sit beside it.
const ownSrc = (document.currentScript as HTMLScriptElement | null)?.src ?? ''

/** The page's language's messages, registered before anything renders (no flash of English). */
async function withMessages(options: MountAllOptions): Promise<void> {
  const { language = 'en' } = options
  if (BUILT_IN[language]) return
  const file = messagesFile(language)
  try {
    const part = await (options.builtIn ??
      loadSibling('messages', file, ownSrc, options.integrity === true, MESSAGE_HASHES[file]))
    BUILT_IN[part.language] = part.messages
  } catch {
    logError(`The ${language} messages could not be loaded from ${file}; the panel shows English.`)
  }
}

function mountAll(referral: ReferralInternals, options: MountAllOptions) {
  configureQrScript({ base: ownSrc, sri: options.integrity === true })
  const { messages, shareUtm, problems } = readUiAttributes(options.attributes ?? {})
  for (const problem of problems) logError(problem)
  const ui = { messages, shareUtm }
  const unmounts: Array<() => void> = []
  let destroyed = false
  referral.on('destroyed', () => {
    destroyed = true
    for (const unmount of unmounts.splice(0)) unmount()
  })
  void withMessages(options).then(() => {
    if (destroyed) return
    for (const element of document.querySelectorAll('[data-referral-widget]')) {
      unmounts.push(mountPanel(element, referral, ui))
    }
    for (const element of document.querySelectorAll('[data-referral-banner]')) {
      unmounts.push(mountBanner(element, referral, ui))
    }
  })
}

handOver('ui', { attach: attachExtras, mountAll })

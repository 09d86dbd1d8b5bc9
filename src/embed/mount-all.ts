// What the script tag's UI files share (mount-all.ts): the panel's attributes of the tag read,
// the page's built-in language's messages loaded first (asked for by the tracking part beside
// this file; or from beside it, with the hash it carries, when the tag is pinned), then each
// element of the page mounted, each that comes later too (pages that change without a reload),
// and one that leaves the page unmounted; all of it when the core is destroyed. The UI file
// (ui-part.ts) mounts panels and banners, the banner file (banner-part.ts) banners alone.
import type { ReferralInternals } from '../core/types.ts'
import { error as logError } from '../shared/log.ts'
import { PAGE_CHANGES } from '../shared/page-changes.ts'
import { BUILT_IN } from '../ui/messages/index.ts'
import { messagesFile, pickLanguage, type UiLanguage } from '../ui/messages/languages.ts'
import type { UiOptions } from '../ui/mount.ts'
import { addsWidget } from './page-watch.ts'
import { loadSibling, type MountAllOptions } from './siblings.ts'
import { rawUiAttributes, readUiAttributes } from './ui-attributes.ts'

/** Subresource Integrity hashes of the messages files, by name; filled in by the build. */
declare const __MESSAGES_INTEGRITY__: Record<string, string> | undefined
const MESSAGE_HASHES: Record<string, string> =
  typeof __MESSAGES_INTEGRITY__ === 'undefined' ? {} : __MESSAGES_INTEGRITY__

// This file's own address, read while it runs: the messages (and QR) files sit beside it.
export const ownSrc = (document.currentScript as HTMLScriptElement | null)?.src ?? ''

/** The page's language's messages, registered before anything renders (no flash of English). */
async function withMessages(language: UiLanguage, options: MountAllOptions): Promise<void> {
  if (BUILT_IN[language]) return
  const file = messagesFile(language)
  try {
    const part = await (options.messages ??
      loadSibling('messages', file, ownSrc, options.integrity, MESSAGE_HASHES[file]))
    BUILT_IN[part.language] = part.messages
  } catch {
    logError(`The ${language} messages could not be loaded from ${file}; the panel shows English.`)
  }
}

/** An element the page marks for the widget, and how it is mounted there. */
type Mount = [
  selector: string,
  mount: (element: Element, referral: ReferralInternals, ui: UiOptions) => () => void,
]

/**
 * mountAll for these mounts: once its messages are there, each element of the page is mounted, and
 * then each that comes later (a page that changes without a reload); one that leaves the page is
 * unmounted; `beside` (the dialog) is mounted with them. Returns what stops it all (the core
 * destroyed, or another UI file taking over).
 */
export const mountAllOf =
  (mounts: Mount[], beside?: (referral: ReferralInternals, ui: UiOptions) => () => void) =>
  (referral: ReferralInternals, options: MountAllOptions) => {
    const { messages, shareUtm, problems } = readUiAttributes(rawUiAttributes(options.script))
    for (const problem of problems) logError(problem)
    const ui = { messages, shareUtm }
    /** The elements mounted, each with what unmounts it. */
    const mounted = new Map<Element, () => void>()
    let stopped = false
    let unmountBeside = () => {}
    /** Each batch of changes: what left is unmounted, what came is mounted (one of ours added). */
    const watching = new MutationObserver((batch) => {
      if (batch.some((record) => record.removedNodes.length > 0)) unmountGone()
      if (addsWidget(batch)) mountNew()
    })
    /** Unmounts the elements that left the page. */
    const unmountGone = () => {
      for (const [element, unmount] of mounted)
        if (!element.isConnected) {
          unmount()
          mounted.delete(element)
        }
    }
    /** Mounts the page's elements not mounted yet. */
    const mountNew = () => {
      for (const [selector, mount] of mounts)
        for (const element of document.querySelectorAll(selector))
          if (!mounted.has(element)) mounted.set(element, mount(element, referral, ui))
    }
    const stop = () => {
      stopped = true
      watching.disconnect()
      unmountBeside()
      for (const unmount of mounted.values()) unmount()
      mounted.clear()
    }
    referral.on('destroyed', stop)
    void withMessages(pickLanguage(referral.config.locale), options).then(() => {
      if (stopped) return
      if (beside) unmountBeside = beside(referral, ui)
      mountNew()
      watching.observe(document, PAGE_CHANGES)
    })
    return stop
  }

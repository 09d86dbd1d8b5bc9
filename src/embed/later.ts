// The script tag's handle on the later part of the core (campaign, link, banner state, stores).
// The tracking part does not carry it: the UI or banner file brings it on a page that shows one
// (fetched by the loader beside the tracking part), the link file on the first getLink()
// elsewhere. Until it is there, identify() calls wait in the command function and run in order
// once it is; getLink() brings it. On a panel page the requests the later part asks for first
// start as soon as this part runs, not after the UI file arrives (ahead.ts). Panels and banners
// are mounted by the UI file the page needs when they come, also after start. A page that can open
// the panel as a dialog (open() or prompt() was called, or it has a launcher or the site's own
// buttons) needs the UI file, which carries the dialog.
import type { Tracker } from '../core/tracker.ts'
import type { ReferralInternals, ReferralOptions } from '../core/types.ts'
import { error as logError } from '../shared/log.ts'
import { sendAhead } from './ahead.ts'
import type { CommandFunction } from './commands.ts'
import { DOORS } from './page-watch.ts'
import { loadPart } from './part-files.ts'
import { type MountAllOptions, notLoaded, type Part, UI_FILE, uiFile } from './siblings.ts'

export const LINK_FILE = 'referral-widget-link.js'

/** The later part, and the UI file that brought it (none: the link file). */
type Later = { part: Part; referral: ReferralInternals; file: string | undefined }

export function createLater(
  tracker: Tracker,
  options: ReferralOptions,
  script: { src: string; pinned: boolean },
  commands: CommandFunction,
) {
  let later: Promise<Later> | undefined
  /** open() or prompt() was called. */
  let dialogs = false
  /** The UI file the page needs: the dialog's where it may open one, else as uiFile() says. */
  const wanted = () => (dialogs || document.querySelector(DOORS) ? UI_FILE : uiFile())

  /** Brings the later part: with the UI file the page needs where it shows one, else the link file. */
  const bring = () => {
    if (later) return later
    const file = wanted()
    const sent = file ? sendAhead(tracker.core, options) : {}
    later = loadPart(file ? 'ui' : 'link', file ?? LINK_FILE, script, script.pinned).then(
      (part): Later => ({ part, referral: part.attach(tracker, options, sent, commands), file }),
    )
    // A file that failed to load is asked for again by the next call.
    later.catch(() => {
      later = undefined
    })
    return later
  }

  /** The UI file mounting the page's elements, and what stops it. */
  let mounting: string | undefined
  let unmount = () => {}
  /** What the UI file mounts with: the tracking part's, from its first show(). */
  let mountWith: (() => MountAllOptions) | undefined

  /**
   * Mounts the page's panels and banners (and the dialog) through the UI file they need, once it
   * has some: the part's own file where it is that one, else that file for its mounting alone (a
   * link file came first, or a banner's, and now a panel is there). That file's mounting follows
   * the elements from then on.
   */
  const show = (mountOptions: () => MountAllOptions) => {
    mountWith = mountOptions
    const file = wanted()
    if (mounting === UI_FILE || !file || file === mounting) return
    mounting = file
    // Asked for now (the messages file beside the UI file), used once it is there.
    const options = mountOptions()
    bring()
      .then(async (later) => {
        const ui =
          later.file === file ? later.part : await loadPart('ui', file, script, script.pinned)
        unmount()
        unmount = ui.mountAll?.(later.referral, options) ?? unmount
      })
      .catch((failure) => logError(notLoaded('panel', file, failure)))
  }

  return {
    /** getLink() before the later part is there: it brings it. */
    getLink: () => bring().then(({ referral }) => referral.getLink()),
    show,
    /**
     * open(), close() and prompt(): the UI file comes (with the dialog it mounts) and the core's
     * method runs there. close() brings nothing: with no later part, nothing is open.
     */
    dialog:
      (name: 'open' | 'close' | 'prompt') =>
      (...args: unknown[]) => {
        if (name === 'close') {
          void later?.then(({ referral }) => referral.close())
          return
        }
        dialogs = true
        if (mountWith) show(mountWith)
        bring().then(
          ({ referral }) => referral[name](...(args as [])),
          (failure) => logError(notLoaded('panel', UI_FILE, failure)),
        )
      },
  }
}

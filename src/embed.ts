// The script tag (`referral-widget.js`): a loader that does what every page needs and loads the
// rest when there is work. It reads its tag, keeps an arrival through a referral link at once
// (before anything else loads), installs window.Referral with the calls made before it, applies
// consent and Global Privacy Control, and peeks at what the widget stores. The tracking part
// (capture, visitor id, events, the option checks and their precise errors; with what sends the
// queue where there is something to send) loads only when the page has work (see `start`), or a
// call needs it; the UI file is fetched beside it on a panel page.
import { ATTRIBUTION_COOKIE } from './api/attribution-cookie.ts'
import { createCommandFunction, install, PROMISED, WAIT } from './embed/commands.ts'
import { keep, referralIn, stored, storing } from './embed/loader/page.ts'
import { readTag, type Tag } from './embed/loader/tag.ts'
import { publishRuntime } from './embed/loader-runtime.ts'
import { DOORS, WIDGET_ELEMENTS } from './embed/page-watch.ts'
import { loadSibling, notLoaded, UI_FILE, uiFile } from './embed/siblings.ts'
import { BUILD } from './shared/build.ts'
import { debugAsked } from './shared/debug-switch.ts'
import { error as logError, warn, warnOnce } from './shared/log.ts'
import { own } from './shared/own.ts'
import { adds, PAGE_CHANGES } from './shared/page-changes.ts'
import { useNonce } from './shared/trusted-script-url.ts'

const LOADED = '__referralWidgetLoaded'
const TRACKING_FILE = 'referral-widget-tracking.js'
/** The tracking part with what sends the queue built in: for a page with something to send. */
const SENDING_FILE = 'referral-widget-tracking-delivery.js'
/** The launcher, the site's own buttons and the prompt after sign-up (launcher-part.ts). */
const LAUNCHER_FILE = 'referral-widget-launcher.js'

declare global {
  interface Window {
    /** The documented stub (with its queue `q`) before load; the command API after. */
    Referral?: unknown
    /** The script tag that started the widget on this page. */
    [LOADED]?: HTMLScriptElement | null
  }
}

function start() {
  const script = document.currentScript as HTMLScriptElement | null
  if (window[LOADED] !== undefined) {
    // A page whose body was swapped without a reload (Turbo, htmx) runs its tag again: the first
    // one is gone from it, and the widget goes on as it was.
    if (window[LOADED]?.isConnected !== false)
      warn("The widget's script is on this page twice: this copy does nothing.")
    return
  }
  window[LOADED] = script
  if (!script) {
    logError('The widget needs its own <script src> tag, carrying data-key.')
    return
  }
  // What the files it loads share with it rather than carry again, with its build: a file of
  // another build (a page mid-upgrade) runs nothing, and says so here, once.
  publishRuntime({
    build: BUILD,
    refused: (build: string) => {
      const message = `A file of build ${build} does not run beside the loader of build ${BUILD}: this page's events wait for a page of one build.`
      warnOnce(message)
      commands.refuse(new Error(message))
    },
  })
  // Under a nonce policy, every file the widget adds carries its tag's nonce.
  useNonce(script)
  const pinned = !!script.integrity
  const tag = readTag(script)
  /** The address carries a referral (a link's code or a hand-off). */
  const referred = !!tag && referralIn(location.href, tag.refParams)
  let requested = false
  let sending = false
  /** The command function is window's (data-global's name): the tag read, the name free. */
  let installed = false
  /** Track calls waiting in memory for the part (storage refused them, or is full). */
  let waiting = 0
  /** What a panel or banner coming to the page does: until the tracking part shows them, need it. */
  let panels = () => need(false)

  /**
   * Loads the tracking part (once): with delivery where it `sends`, the UI file beside it (the
   * dialog's where the panel is about to open: `dialog`, on intent, open() or prompt()). Offline
   * it waits until the page is back online: what was kept waits in storage meanwhile, and that is
   * no error. A part that failed to load online is asked for again by the next call. (Under
   * Trusted Types a pinned tag gets no module import in place of its refused <script>.)
   */
  const need = (sends: boolean, dialog?: boolean) => {
    sending ||= sends
    if (requested) return
    requested = true
    const online = () => {
      requested = false
      need(sending)
    }
    if (navigator.onLine === false) {
      addEventListener('online', online, own({ once: true }))
      return
    }
    const ui = tag && (dialog ? UI_FILE : uiFile())
    if (ui) loadSibling('ui', ui, script.src, pinned, undefined, true).catch(() => {})
    const file = sending ? SENDING_FILE : TRACKING_FILE
    loadSibling('tracking', file, script.src, pinned).then(
      (part) =>
        part.start({
          script,
          commands,
          installed,
          outbound: referred && (!storing(tag as Tag) || location.href.includes('ref_handoff=')),
          panels: (show) => {
            panels = show
          },
        }),
      (failure) => {
        // Offline meanwhile: asked for again, which waits for the page to be back online.
        if (navigator.onLine === false) return online()
        requested = false
        const message = notLoaded('widget', file, failure)
        logError(message)
        commands.refuse(new Error(message))
      },
    )
  }

  /**
   * The loader's own answer to a call made before the tracking part runs, or WAIT. Only where it
   * read its tag: else every call waits for the part.
   */
  const early =
    tag &&
    ((name: string, args: unknown[]): unknown => {
      if (name === 'getAttribution') return null // nothing held, or not read yet
      if (name === 'decorate') return args[0] // nothing to hand off
      if (name === 'track') {
        need(true)
        // Kept in storage at once where it may be (the part takes it): a page that moves on right
        // after it loses nothing. Else it waits in memory, in order with the rest.
        const { userId, code } = own((args[1] ?? {}) as { userId?: unknown; code?: unknown })
        const values = args[0] === 'click' ? [code] : [userId, code]
        const kept = storing(tag) && keep(tag.namespace, args[0], values)
        if (kept === true) return true
        if (kept) {
          // Past the queue's bound: dropped now, and said now, as the queue says it.
          commands.announce('event:dropped', {
            event: { id: kept, type: args[0], visitorId: '', userId, code },
            reason: 'overflow',
          })
          return false
        }
        waiting++
        return WAIT
      }
      const { toSend, kept, any } = stored(tag.namespace)
      // The calls and the arrival kept for the part, and the calls waiting for it in memory.
      if (name === 'queueSize') return kept + waiting
      // Nothing to send, or no way to send it now (offline, the part is not even asked for): the
      // queue has been tried, as the part's flush() would say; what is kept waits in storage.
      if (name === 'flush' && ((!requested && !toSend) || navigator.onLine === false))
        return Promise.resolve()
      // Each call waits for the part, which applies them in order; these need it now: a call whose
      // answer is a promise (flush() with what sends), debug(), open() and prompt() (the panel's
      // file comes with the part), forget and a refusal only where there is something to erase,
      // consent where it is news.
      const erases = any || tag.cookieDomain
      if (
        [...PROMISED, 'debug', 'open', 'prompt'].includes(name) ||
        (name === 'forget' && erases) ||
        (name === 'consent' && (args[0] === true ? !storing(tag) : erases))
      )
        need(name === 'flush', name === 'open' || name === 'prompt')
      return WAIT
    })
  const commands = createCommandFunction(early)
  if (!tag) {
    need(false) // the tracking part reads the tag, and says what is wrong with it
    return
  }
  // An arrival is kept at once, where storing is allowed, and no Global Privacy Control signal
  // is honoured: before the calls the stub queued, which came after it (a signup the page
  // made then is credited to this arrival's referral).
  const gpc =
    tag.honorGpc && (navigator as { globalPrivacyControl?: unknown }).globalPrivacyControl === true
  if (referred && !gpc && storing(tag)) keep(tag.namespace, 'arrive', [location.href])
  // A global of the page's own under that name: the tracking part says what to do about it.
  installed = install(commands.api, tag.global)
  // What this page has to do. The tracking part loads when there is work: a referral in the
  // address bar or in the site's shared cookie, events waiting or a referral held in storage, an
  // arrival kept by a page that closed too soon, a panel or banner to show, or the global not
  // installed; and with what sends the queue built in when there is something to send at once.
  // (Calls that need it load it too.)
  const { toSend, held } = stored(tag.namespace)
  const sends = toSend || referred
  const shared = tag.cookieDomain && document.cookie.includes(`${ATTRIBUTION_COOKIE}=`)
  // Debug mode has work on every page: saying why nothing happens is its point.
  const debug = tag.debug || debugAsked(location.search)
  if (sends || held || shared || debug || uiFile() || !installed) need(sends)
  /** The launcher file, once, where the page has what it serves (page-watch.ts). */
  let doors = () => {
    if (!document.querySelector(DOORS)) return
    doors = () => {}
    loadSibling('launcher', LAUNCHER_FILE, script.src, pinned).then(
      (part) =>
        part.start({
          script,
          commands,
          namespace: tag.namespace,
          warm: () => {
            need(false, true)
            panels()
          },
        }),
      (failure) => logError(notLoaded('launcher', LAUNCHER_FILE, failure)),
    )
  }
  doors()
  // A panel, a banner or a button of the site's parsed later, or put in by a page that changes
  // without a reload: the tracking part is asked for, then shows it (and each one after); the
  // launcher file comes for a button.
  new MutationObserver((batch) => {
    if (!adds(batch, `${WIDGET_ELEMENTS},${DOORS}`)) return
    if (uiFile()) panels()
    doors()
  }).observe(document, PAGE_CHANGES)
}

start()

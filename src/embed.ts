// The script tag: attributes → the tracking core → window.Referral. The rest comes from beside
// this file only when needed: the cookie file first where data-cookie-domain is set, the outbound
// file first where data-outbound is, the UI file (with the campaign, link and stores it shows)
// when the page has a panel or banner element, the link file on the first getLink() elsewhere;
// each pinned by its hash when this file is.
import { createTracking } from './core/create-referral.ts'
import { readTrackingAttributes } from './embed/attributes.ts'
import { type CommandApi, createCommandApi, replay } from './embed/commands.ts'
import { createLater } from './embed/later.ts'
import { publishRuntime } from './embed/runtime.ts'
import { loadSibling, type Parts } from './embed/siblings.ts'
import { rawUiAttributes } from './embed/ui-attributes.ts'
import { messageOf } from './shared/errors.ts'
import { error as logError, warn } from './shared/log.ts'
import { own } from './shared/own.ts'
import { policyRefused } from './shared/trusted-script-url.ts'
import { messagesFile, pickLanguage } from './ui/messages/languages.ts'

const LOADED = '__referralWidgetLoaded'
const COOKIE_FILE = 'referral-widget-cookie.js'
const OUTBOUND_FILE = 'referral-widget-outbound.js'
const UI_FILE = 'referral-widget-ui.js'

declare global {
  interface Window {
    /** The documented stub (with its queue `q`) before load; the command API after. */
    Referral?: unknown
    [LOADED]?: boolean
  }
}

function start() {
  const script = document.currentScript as HTMLScriptElement | null
  if (window[LOADED]) {
    warn('The widget script is included more than once; this copy does nothing.')
    return
  }
  window[LOADED] = true
  if (!script) {
    logError('The widget must be loaded with a <script src> tag carrying data-key.')
    return
  }

  let config: ReturnType<typeof readTrackingAttributes>
  try {
    config = readTrackingAttributes(script, script.src)
  } catch (failure) {
    logError(messageOf(failure))
    return
  }
  for (const problem of config.problems) logError(problem)

  // What the files beside this one share with it rather than carry again.
  publishRuntime()
  const pinned = script.integrity !== ''
  const { cookieDomain, outbound } = config.options
  if (cookieDomain === undefined && !outbound?.length) {
    run(script, config, pinned)
    return
  }
  // These parts come before tracking starts, and calls to the stub wait for them: the cookie's
  // module, so a referral captured on another subdomain is adopted first; the outbound links',
  // so links are decorated from the start and decorate() answers from its first call.
  const first = <N extends 'cookie' | 'outbound'>(name: N, file: string, failure: string) =>
    loadSibling(name, file, script.src, pinned).catch(() => {
      logError(failure)
      return undefined
    })
  void Promise.all([
    cookieDomain === undefined
      ? undefined
      : first(
          'cookie',
          COOKIE_FILE,
          `The attribution cookie could not be loaded from ${COOKIE_FILE} beside the script; the referral stays on this subdomain.`,
        ),
    outbound?.length
      ? first(
          'outbound',
          OUTBOUND_FILE,
          `The hand-off to other domains could not be loaded from ${OUTBOUND_FILE} beside the script; links to them are not decorated.`,
        )
      : undefined,
  ]).then(([cookie, links]) =>
    run(script, config, pinned, cookie?.sharedCookie, links?.outboundLinks),
  )
}

/** Tracking starts, window.Referral becomes the command API, the panel comes if the page has one. */
function run(
  script: HTMLScriptElement,
  config: ReturnType<typeof readTrackingAttributes>,
  pinned: boolean,
  sharedCookie?: Parts['cookie']['sharedCookie'],
  outboundLinks?: Parts['outbound']['outboundLinks'],
) {
  const tracker = createTracking(config.options, sharedCookie, outboundLinks)
  const later = createLater(tracker, config.options, { src: script.src, pinned })
  const api = createCommandApi({
    ...tracker,
    identify: later.identify,
    getLink: later.getLink,
    flush: later.flush,
  })
  install(api, config.global)

  // Pinned by SRI, the UI loads the QR file pinned by its hash too.
  // The panel's own attributes are read by the UI file, as written.
  const ui = { attributes: rawUiAttributes(script), integrity: pinned }
  const mountWhenReady = () => {
    if (!document.querySelector('[data-referral-widget],[data-referral-banner]')) return
    // The campaign request starts now; the UI code arrives alongside it, and so does the
    // page's language's messages file where no hash is needed (pinned, the UI file loads it
    // with the hash it carries).
    const language = pickLanguage(config.options.locale ?? tracker.core.host.language ?? 'en')
    const builtIn =
      language === 'en' || pinned
        ? undefined
        : loadSibling('messages', messagesFile(language), script.src, false)
    builtIn?.catch(() => {}) // reported by the UI file, which shows English then
    later
      .load('ui', UI_FILE)
      .then(({ part, referral }) => part.mountAll?.(referral, { ...ui, language, builtIn }))
      .catch((failure) =>
        logError(
          // A TypeError from the <script>'s src: the page enforces Trusted Types, and its CSP
          // refused the widget's policy.
          failure instanceof TypeError && policyRefused()
            ? "The panel cannot load under this page's Trusted Types policy: add `referral-widget` to the CSP's trusted-types directive."
            : `The panel could not be loaded from ${UI_FILE} beside the script.`,
        ),
      )
  }
  if (document.readyState === 'loading')
    document.addEventListener('DOMContentLoaded', mountWhenReady, own({ once: true }))
  else mountWhenReady()
}

/**
 * The command function goes to `window[name]` (`Referral`, or data-global's name), replacing only
 * what the widget owns there: nothing, or the documented stub with the calls it queued. A global
 * of the page's own is left alone, with one warning saying what to do.
 */
function install(api: CommandApi, name: string) {
  const globals = window as unknown as Record<string, unknown>
  const found = globals[name]
  if (found !== undefined && !isStub(found)) {
    warn(
      `window.${name} belongs to the page, so the widget leaves it alone and its commands are not installed there. Add data-global="ReferralWidget" (any free name) to the widget's script tag, and use that name in the stub and your calls.`,
    )
    return
  }
  globals[name] = api
  replay(api, (found as { q?: unknown } | undefined)?.q)
}

/** The documented stub: a function that queues its calls in `q` (and has queued none yet). */
function isStub(value: unknown): boolean {
  if (typeof value !== 'function') return false
  if (Array.isArray((value as { q?: unknown }).q)) return true
  try {
    return /\.q\s*=/.test(Function.prototype.toString.call(value))
  } catch {
    return false
  }
}

start()

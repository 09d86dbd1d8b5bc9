// The script tag's tracking part (`referral-widget-tracking.js`), loaded by the loader
// (referral-widget.js) when a page has work: attributes → the tracking core → window.Referral's
// methods. The rest comes from beside it only when needed: the cookie file first where
// data-cookie-domain is set, the outbound file first where data-outbound is (or a referral waits for
// consent, to ride on the site's own links), the UI file (with the
// campaign, link and stores it shows) when the page has a panel or banner element, the link file
// on the first getLink() elsewhere; each pinned, where the tag is, by the hash the pins file
// carries (siblings.ts).
import { resolveApiBase } from '../core/options.ts'
import { createTracker } from '../core/tracker.ts'
import { debugAsked } from '../shared/debug-switch.ts'
import { messageOf } from '../shared/errors.ts'
import { error as logError, warn } from '../shared/log.ts'
import { own } from '../shared/own.ts'
import { messagesBeside } from './ahead.ts'
import {
  type AttributeChecks,
  quiet,
  readTrackingAttributes,
  type TrackingConfig,
} from './attributes.ts'
import { install, methodsOf } from './commands.ts'
import { createLater } from './later.ts'
import { loadPart } from './part-files.ts'
import { publishRuntime } from './runtime.ts'
import { sendingFor } from './sending-part.ts'
import { handOver, notLoaded, type Parts, type TrackingStart } from './siblings.ts'

const COOKIE_FILE = 'referral-widget-cookie.js'
const OUTBOUND_FILE = 'referral-widget-outbound.js'

const CHECKS_FILE = 'referral-widget-checks.js'
const DEBUG_FILE = 'referral-widget-debug.js'
const CHECKOUT_FILE = 'referral-widget-checkout.js'

function start(given: TrackingStart) {
  const { script } = given
  // What the files beside this one share with it rather than carry again.
  publishRuntime()
  const pinned = script.integrity !== ''
  const read = (checks: AttributeChecks) => {
    try {
      return readTrackingAttributes(script, script.src, location.href, checks)
    } catch (failure) {
      return messageOf(failure)
    }
  }
  /** Where the loader did not: the command function goes to window, unless the name is taken. */
  const installed = (config: TrackingConfig) =>
    given.installed || install(given.commands.api, config.global)
  const config = read(quiet)
  if (typeof config !== 'string' && config.problems.length === 0 && installed(config)) {
    begin(given, config, pinned)
    return
  }
  // Something is refused: the checks file says precisely what, and the rest goes on without it.
  loadPart('checks', CHECKS_FILE, script, pinned).then(
    ({ precise }) => {
      const checked = read(precise)
      if (typeof checked === 'string') return logError(checked) // the key: nothing runs
      for (const problem of checked.problems) logError(problem)
      if (!installed(checked)) warn(precise.ownGlobal(checked.global))
      begin(given, checked, pinned)
    },
    (failure) =>
      logError(notLoaded('check of the tag', CHECKS_FILE, failure, ': an attribute is refused')),
  )
}

/** The cookie and outbound parts where the tag asks for them, then tracking. */
function begin(given: TrackingStart, config: TrackingConfig, pinned: boolean) {
  const { script } = given
  const { cookieDomain, outbound } = config.options
  // These parts come before tracking starts, and calls to the stub wait for them: the cookie's
  // module, so a referral captured on another subdomain is adopted first; the outbound links',
  // so links are decorated from the start and decorate() answers from its first call.
  const first = <N extends 'cookie' | 'outbound'>(
    name: N,
    file: string,
    what: string,
    effect: string,
  ) =>
    loadPart(name, file, script, pinned).catch((failure) => {
      logError(notLoaded(what, file, failure, effect))
      return undefined
    })
  void Promise.all([
    cookieDomain === undefined
      ? undefined
      : first(
          'cookie',
          COOKIE_FILE,
          'attribution cookie',
          '; the referral stays on this subdomain',
        ),
    outbound?.length || given.outbound
      ? first(
          'outbound',
          OUTBOUND_FILE,
          'hand-off to other domains',
          '; links to them are not decorated',
        )
      : undefined,
  ]).then(([cookie, links]) => run(given, config, pinned, cookie?.sharedCookie, links))
}

/** Tracking starts, window.Referral becomes the command API, the panel comes if the page has one. */
function run(
  { script, commands, panels }: TrackingStart,
  config: TrackingConfig,
  pinned: boolean,
  sharedCookie?: Parts['cookie']['sharedCookie'],
  links?: Parts['outbound'],
) {
  // The options as attributes.ts checked them (the tag's refused ones left out, reported).
  const { options, key } = config
  const tracker = createTracker(
    own({
      ...options,
      key,
      apiBase: resolveApiBase(options.apiBase as string, location.href),
      refParams: (options.refParam as string[] | undefined) ?? ['ref'],
      cleanUrl: options.cleanUrl !== false,
      honorGpc: options.honorGpc === true,
      debug: options.debug === true || debugAsked(location.search),
      firstTouch: options.attribution === 'first',
      outbound: options.outbound as string[] | undefined,
      sending: sendingFor(script, pinned),
      sharedCookie,
      outboundLinks: links?.outboundLinks,
      handoffArrival: links?.handoffArrival,
      checkout: options.checkout === true,
      // Brought once a referral is held: a page without one downloads nothing more.
      checkoutLinks: () =>
        loadPart('checkout', CHECKOUT_FILE, script, pinned).then(
          (part) => part.checkoutLinks,
          (failure) =>
            void logError(
              notLoaded(
                'checkout',
                CHECKOUT_FILE,
                failure,
                ': checkout links do not carry the referral',
              ),
            ),
        ),
      debugging: () =>
        loadPart('debug', DEBUG_FILE, script, pinned).catch((failure) => {
          throw new Error(notLoaded('debug mode', DEBUG_FILE, failure))
        }),
    }),
  )
  const later = createLater(tracker, config.options, { src: script.src, pinned }, commands)
  // identify() waits for the later part (and comes with it); getLink() brings it.
  const methods = methodsOf({
    ...tracker,
    getLink: later.getLink,
    open: later.dialog('open'),
    close: later.dialog('close'),
    prompt: later.dialog('prompt'),
  } as never)
  delete methods.identify
  commands.attach(methods)

  // The page's panels and banners, now and as they come (the loader watches the page). The
  // campaign request starts with the first; the UI code has been on its way since the loader
  // ran, and the page's language's messages come beside it.
  const show = () =>
    later.show(() => ({
      script,
      integrity: pinned,
      messages: messagesBeside(options.locale, script.src, pinned),
    }))
  show()
  panels(show)
}

handOver('tracking', { start })

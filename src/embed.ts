// The script tag: attributes → the core → window.Referral → the UI, fetched from beside this file
// only when the page has a panel or banner element (and pinned by its hash when this file is).
import { createReferralInternals } from './core/create-referral.ts'
import { readAttributes } from './embed/attributes.ts'
import { createCommandApi, replay } from './embed/commands.ts'
import { loadSibling } from './embed/siblings.ts'
import { messageOf } from './shared/errors.ts'
import { error as logError, warn } from './shared/log.ts'
import { uiFile } from './ui/messages/languages.ts'

const LOADED = '__referralWidgetLoaded'

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

  let config: ReturnType<typeof readAttributes>
  try {
    config = readAttributes(script, script.src)
  } catch (failure) {
    logError(messageOf(failure))
    return
  }
  for (const problem of config.problems) logError(problem)

  // A page that only tracks never asks for the campaign; one with a panel asks at once.
  const referral = createReferralInternals({ ...config.options, campaign: 'on-demand' })
  const api = createCommandApi(referral)
  const stub = window.Referral as { q?: unknown } | undefined
  window.Referral = api
  replay(api, stub?.q)

  const pinned = script.integrity !== ''
  // Pinned by SRI, the UI loads the QR file pinned by its hash too.
  const ui = { messages: config.messages, shareUtm: config.shareUtm, integrity: pinned }
  const mountWhenReady = () => {
    if (!document.querySelector('[data-referral-widget],[data-referral-banner]')) return
    // The campaign request is already under way; the UI code (in the page's language only)
    // arrives alongside it.
    referral.needCampaign()
    const file = uiFile(referral.config.locale)
    loadSibling(file, script.src, pinned)
      .then((part) => part.mountAll(referral, ui))
      .catch(() => logError(`The panel could not be loaded from ${file} beside the script.`))
  }
  if (document.readyState === 'loading')
    document.addEventListener('DOMContentLoaded', mountWhenReady, { once: true })
  else mountWhenReady()
}

start()

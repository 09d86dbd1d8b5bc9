// The script tag: attributes → createReferral → window.Referral → the UI, fetched from beside
// this file only when the page has a panel or banner element.
import { ConfigError } from './api/errors.ts'
import { createReferral } from './core/create-referral.ts'
import { error as logError, warn } from './core/log.ts'
import { readAttributes } from './embed/attributes.ts'
import { createCommandApi, replay } from './embed/commands.ts'
import { loadUi } from './embed/ui-handoff.ts'
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
    logError(failure instanceof ConfigError ? failure.message : String(failure))
    return
  }
  for (const problem of config.problems) logError(problem)

  // A page that only tracks never asks for the campaign; one with a panel asks at once.
  const referral = createReferral({ ...config.options, campaign: 'on-demand' })
  const stub = window.Referral as { q?: unknown } | undefined
  const queued = stub?.q
  const api = createCommandApi(referral)
  window.Referral = api
  replay(api, queued)

  // With integrity on the script tag, the UI loads the QR file pinned by its hash too.
  const ui = { messages: config.messages, shareUtm: config.shareUtm, integrity: !!script.integrity }
  const mountWhenReady = () => {
    if (!document.querySelector('[data-referral-widget],[data-referral-banner]')) return
    // The campaign request is already under way; the UI code (in the page's language only)
    // arrives alongside it.
    referral.needCampaign()
    const file = uiFile(referral.config.locale)
    loadUi(new URL(file, script.src).href)
      .then((module) => module.mountAll(referral, ui))
      .catch(() => logError(`The panel could not be loaded from ${file} beside the script.`))
  }
  if (document.readyState === 'loading')
    document.addEventListener('DOMContentLoaded', mountWhenReady, { once: true })
  else mountWhenReady()
}

start()

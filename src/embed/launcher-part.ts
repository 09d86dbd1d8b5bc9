// The script tag's launcher file (`referral-widget-launcher.js`): loaded by the loader on a page
// with something it serves (page-watch.ts): the site's own buttons (`data-referral-open`), the
// launcher (`data-launcher`) for a signed-in user, and the prompt after this browser's own
// sign-up (`data-prompt="signup"`). It carries no panel: intent on a button or the launcher
// (pointer over, focus, touch) brings the tracking part and the UI file with the dialog together,
// and the part asks for the campaign and the link; a click opens it (open(), with the button to
// give the focus back to). It hears the calls the page makes (identify, forget, track): the launcher comes
// with a user and goes without one.
import { LAUNCHER_NAME, nameIn } from '../core/launcher-name.ts'
import { defaultStorage } from '../queue/storage.ts'
import { warn } from '../shared/log.ts'
import { own } from '../shared/own.ts'
import * as labels from '../ui/launcher/labels.ts'
import { createLauncher, type Launcher, type LauncherPosition } from '../ui/launcher/launcher.ts'
import { pickLanguage } from '../ui/messages/languages.ts'
import { INTENT_EVENTS, LAUNCHER_ATTRIBUTES, OPENER_EVENTS, openerAt, openerOf } from './openers.ts'
import { handOver, type LauncherStart } from './siblings.ts'

const POSITIONS = ['bottom-right', 'bottom-left', 'none']

/** data-launcher, checked: the launcher's corner, or none (absent, `none`, or refused). */
function positionOf(written: string | null): LauncherPosition | undefined {
  if (written === null || written === 'none') return
  if (written === '') return 'bottom-right'
  if (POSITIONS.includes(written)) return written as LauncherPosition
  warn(`data-launcher="${written}" is ignored: it must be bottom-right, bottom-left or none.`)
}

/** A user id as identify() takes it (the core checks it precisely), or undefined. */
const userOf = (id: unknown) => (typeof id === 'string' && id !== '' ? id : undefined)

function start({ script, commands, namespace, warm }: LauncherStart) {
  const { api } = commands
  const position = positionOf(script.getAttribute(LAUNCHER_ATTRIBUTES.launcher))
  const prompt = script.getAttribute(LAUNCHER_ATTRIBUTES.prompt)
  if (prompt !== null && prompt !== 'signup')
    warn(`data-prompt="${prompt}" is ignored: it must be signup.`)
  let user = userOf(script.getAttribute('data-user-id'))

  // Intent: the panel's files and requests start, once.
  let warmed = false
  const intent = () => {
    if (warmed) return
    warmed = true
    warm()
  }
  for (const type of OPENER_EVENTS)
    addEventListener(type, (event) => {
      const opener = openerOf(event)
      if (!opener) return
      event.preventDefault()
      api('open', opener)
    })
  for (const type of INTENT_EVENTS)
    addEventListener(type, (event) => openerAt(event) && intent(), own({ passive: true }))

  // The launcher: named by the campaign's headline the panel last showed, else "Refer a friend"
  // in the page's language.
  const language = pickLanguage(
    script.getAttribute('data-locale') ?? (document.documentElement.lang || navigator.language),
  )
  const name = () => {
    let stored: string | null | undefined
    try {
      stored = defaultStorage()?.getItem(namespace + LAUNCHER_NAME)
    } catch {}
    // biome-ignore lint/performance/noDynamicNamespaceImportAccess: this file carries every language's label by design
    return nameIn(stored) ?? labels[language.replace('-', '') as keyof typeof labels]
  }
  let launcher: Launcher | undefined
  const show = () => {
    if (!document.body) return // the page is not parsed yet: shown when it is
    if (!position || user === undefined) {
      launcher?.remove()
      launcher = undefined
      return
    }
    launcher ??= createLauncher(position, { intent, activate: (button) => api('open', button) })
    launcher.name(name())
  }
  addEventListener('DOMContentLoaded', show, own({ once: true }))
  show()
  // Named anew once the dialog has shown the campaign.
  api('on', 'close', show)

  commands.hear = (method, args) => {
    if (method === 'identify' || method === 'forget') {
      user = method === 'identify' ? userOf(args[0]) : undefined
      show()
    }
    // This browser's own sign-up: that user is the referrer now, prompted to refer (after the
    // sign-up call itself has run).
    const { userId } = own((args[1] ?? {}) as { userId?: unknown })
    if (method === 'track' && args[0] === 'signup' && prompt === 'signup' && userOf(userId))
      queueMicrotask(() => {
        api('identify', userId)
        api('prompt')
      })
  }
}

handOver('launcher', { start })

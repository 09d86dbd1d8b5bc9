// Runs inside the demo's widget pages (the script-tag referrer frame and the visitor page),
// before the widget script: it forwards the widget's Referral.on(...) events, its console
// messages, its localStorage and its request count to the demo page, and carries out the demo
// page's commands (offline, sign up, forget, consent, flush).
import { installNetworkSim } from './network.ts'
import {
  CHANNEL,
  Command,
  demoOrigins,
  describe,
  EVENT_NAMES,
  type FrameMessage,
  type Role,
  type Without,
} from './protocol.ts'

type CommandApi = ((method: string, ...args: unknown[]) => unknown) & { q?: unknown[][] }

/** window.Referral: the documented stub before the script has loaded, the command API after. */
function referral(): CommandApi {
  const current = window.Referral
  if (typeof current === 'function') return current as CommandApi
  const stub: CommandApi = (...args: unknown[]) => {
    stub.q ??= []
    stub.q.push(args)
  }
  window.Referral = stub
  return stub
}

/** The widget created its API (the stub has no methods of its own). */
const started = () => {
  const current = window.Referral
  return typeof current === 'function' && 'getLink' in current
}

export interface Bridge {
  /**
   * Settles when the demo page has answered (true), or at once with no demo page around, or
   * after a short wait for one that does not answer (false).
   */
  ready: Promise<boolean>
  /** A demo page answered: it shows this page's refusal and signs its visitor up. */
  driven(): boolean
  /** Adds the widget's <script> with these data- attributes. */
  loadWidget(attributes: Record<string, string | undefined>): void
  call(method: string, ...args: unknown[]): unknown
  /** The widget's refusal to start (its console.error), once the script ran. */
  refusal(): string | null
  onUpdate(listener: () => void): void
  apiRequests(): number
  isOffline(): boolean
  report(message: Without<FrameMessage, 'channel' | 'role'>): void
}

export function startBridge(role: Role): Bridge {
  const { main } = demoOrigins()
  const net = installNetworkSim()
  const listeners = new Set<() => void>()
  const update = () => {
    for (const listener of listeners) listener()
  }
  let loaded = false
  let refusal: string | null = null
  const errors: string[] = []

  const targets = (): Window[] => {
    const found: Window[] = []
    if (window.parent !== window) found.push(window.parent)
    const opener: unknown = window.opener
    if (opener && typeof (opener as Window).postMessage === 'function') found.push(opener as Window)
    return found
  }
  const report = (message: Without<FrameMessage, 'channel' | 'role'>) => {
    for (const target of targets()) {
      try {
        target.postMessage({ channel: CHANNEL, role, ...message }, main)
      } catch {
        // The demo page went away or moved to another origin.
      }
    }
  }

  // The widget's console messages: shown by the demo page, and the refusal in this page.
  for (const level of ['error', 'warn'] as const) {
    const original = console[level].bind(console)
    console[level] = (...args: unknown[]) => {
      original(...args)
      const text = args.map((arg) => (typeof arg === 'string' ? arg : describe(arg))).join(' ')
      if (!text.startsWith('[referral]')) return
      if (level === 'error') errors.push(text)
      report({ kind: 'console', level, text, at: Date.now() })
    }
  }

  // Referral.on(...) through the stub: replayed by the script as soon as it has started.
  for (const name of EVENT_NAMES) {
    referral()('on', name, (payload: unknown) => {
      const url =
        name === 'link' && payload && typeof (payload as { url?: unknown }).url === 'string'
          ? (payload as { url: string }).url
          : undefined
      report({
        kind: 'event',
        name,
        detail: describe(payload),
        ...(url === undefined ? {} : { url }),
        at: Date.now(),
      })
      // The panel's state changes with these (ready, link...): the demo page hears it now, not
      // at the next periodic report.
      sendState()
      update()
    })
  }

  const attribution = (): string | null => {
    if (!started()) return null
    const value = referral()('getAttribution') as { code?: unknown } | null | undefined
    return typeof value?.code === 'string' ? value.code : null
  }
  const snapshot = (): Array<[string, string]> => {
    const entries: Array<[string, string]> = []
    try {
      for (let i = 0; i < localStorage.length; i++) {
        const key = localStorage.key(i)
        if (key?.startsWith('referral:')) entries.push([key, localStorage.getItem(key) ?? ''])
      }
    } catch {
      // No storage here: nothing to show.
    }
    return entries.sort(([a], [b]) => a.localeCompare(b))
  }
  const widget = (): string | null => {
    const panel = document.querySelector('[data-referral-widget]')?.shadowRoot
    const state = panel?.querySelector('[data-part="root"]')?.getAttribute('data-state')
    if (state) return state
    const banner = document.querySelector('[data-referral-banner]')?.shadowRoot
    return banner?.querySelector('[data-part="banner"]') ? 'banner' : null
  }
  const sendState = () => {
    sendSize()
    report({
      kind: 'state',
      storage: snapshot(),
      requests: net.apiRequests(),
      offline: net.isOffline(),
      loaded,
      refusal,
      attribution: attribution(),
      widget: widget(),
      href: location.href,
    })
  }
  net.onChange(() => {
    sendState()
    update()
  })
  window.addEventListener('storage', sendState)
  setInterval(sendState, 1000)

  // The page's height, so the demo page can size the frame to it. Checked with every state
  // report too: a frame of another origin may get no rendering updates (and so no
  // ResizeObserver callbacks) while the browser throttles it.
  let height = 0
  const sendSize = () => {
    const now = Math.ceil(document.body.scrollHeight)
    if (now === height) return
    height = now
    report({ kind: 'size', height })
  }
  new ResizeObserver(sendSize).observe(document.body)

  let driven = false
  let answered: () => void = () => {}
  const ready = new Promise<boolean>((resolve) => {
    answered = () => {
      driven = true
      resolve(true)
    }
    // Opened by hand, or the demo page does not answer: start anyway.
    if (targets().length === 0) resolve(false)
    else setTimeout(() => resolve(false), 500)
  })

  const done = (command: string, text: string) => {
    report({ kind: 'done', command, text })
    sendState()
    update()
  }
  window.addEventListener('message', (event: MessageEvent) => {
    if (event.origin !== main) return
    const parsed = Command.safeParse(event.data)
    if (!parsed.success) return
    const command = parsed.data
    answered()
    switch (command.kind) {
      case 'offline':
        net.setOffline(command.on)
        sendState()
        return
      case 'signup': {
        const ok = referral()('track', 'signup', { userId: command.userId })
        done(
          'signup',
          ok === false
            ? `Signup of ${command.userId} refused (see the console messages).`
            : `Signup of ${command.userId} recorded${started() ? '' : ' (waits for the widget)'}.`,
        )
        return
      }
      case 'forget':
        referral()('forget')
        done('forget', 'Referral.forget(): this visitor’s referral: keys are erased.')
        return
      case 'consent':
        referral()('consent', command.granted)
        done('consent', `Referral('consent', ${command.granted})`)
        return
      case 'flush':
        void Promise.resolve(referral()('flush')).then(() =>
          done('flush', 'Referral.flush() settled.'),
        )
        return
    }
  })

  report({ kind: 'hello' })

  return {
    ready,
    driven: () => driven,
    loadWidget(attributes) {
      const script = document.createElement('script')
      script.async = true
      script.src = '/referral-widget.js'
      for (const [name, value] of Object.entries(attributes)) {
        if (value !== undefined) script.setAttribute(`data-${name}`, value)
      }
      const finish = (failure?: string) => {
        loaded = true
        if (failure) refusal = failure
        // Without the console's prefix, in the words the Preact column uses for the same refusal.
        else if (!started())
          refusal = (errors[errors.length - 1] ?? 'The widget did not start.').replace(
            /^\[referral\] /,
            '',
          )
        sendState()
        update()
      }
      script.addEventListener('load', () => finish())
      script.addEventListener('error', () =>
        finish('/referral-widget.js could not be loaded: `npm start` builds it into dist/.'),
      )
      document.body.append(script)
    },
    call: (method, ...args) => referral()(method, ...args),
    refusal: () => refusal,
    onUpdate(listener) {
      listeners.add(listener)
    },
    apiRequests: () => net.apiRequests(),
    isOffline: () => net.isOffline(),
    report,
  }
}

/**
 * Keeps a frame's status line and refusal box in step with its bridge. `refusalShownAbove`: a
 * demo page that drives this frame shows the refusal above it, so the box stays hidden then
 * (said twice, it reads as two refusals).
 */
export function showFrameStatus(bridge: Bridge, { refusalShownAbove = false } = {}) {
  const refusalBox = document.querySelector<HTMLElement>('[data-testid="frame-refusal"]')
  const meta = document.querySelector<HTMLElement>('[data-testid="frame-meta"]')
  const render = () => {
    const refusal = bridge.refusal()
    if (refusalBox) {
      refusalBox.hidden = refusal === null || (refusalShownAbove && bridge.driven())
      refusalBox.textContent = refusal === null ? '' : `Refused: ${refusal}`
    }
    if (meta) {
      const count = bridge.apiRequests()
      meta.textContent = `${count} request${count === 1 ? '' : 's'} to /v1 from this page${
        bridge.isOffline() ? ' · offline (simulated)' : ''
      }`
    }
  }
  bridge.onUpdate(render)
  render()
}

/** The consent buttons of a frame opened with `consent=required`, and the page's language. */
export function showConsentAndLocale(bridge: Bridge, params: URLSearchParams) {
  const consentBox = document.querySelector<HTMLElement>('[data-testid="frame-consent"]')
  if (params.get('consent') === 'required' && consentBox) {
    consentBox.hidden = false
    for (const button of consentBox.querySelectorAll<HTMLButtonElement>('button[data-consent]')) {
      button.addEventListener('click', () =>
        bridge.call('consent', button.dataset.consent === 'true'),
      )
    }
  }
  const locale = params.get('locale')
  if (locale) document.documentElement.lang = locale
}

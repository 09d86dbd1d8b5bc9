// Runs inside the demo's widget pages (the script-tag referrer frame, the visitor's shop and app
// pages), before the widget script: it forwards the widget's Referral.on(...) events, its console
// messages, its localStorage and its request count to the demo page, and carries out the demo
// page's commands (offline, sign up, forget, consent, flush).
import { installNetworkSim } from './network.ts'
import { heldReferral, referral, started, storedKeys, widgetState } from './page-widget.ts'
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

/** A refusal without the console's prefix, in the words the Preact column uses for it. */
const withoutPrefix = (text: string) => text.replace(/^\[referral\] /, '')

/** `onApp`: the page is the visitor's app, served under the demo page's other host name. */
export function startBridge(role: Role, { onApp = false } = {}): Bridge {
  const { main } = demoOrigins(onApp)
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
      // The loader leaves a tag it cannot read to the tracking part, which says why a moment
      // after the script's load event.
      if (level === 'error' && loaded && refusal === null && !started()) {
        refusal = withoutPrefix(text)
        sendState()
        update()
      }
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

  const sendState = () => {
    sendSize()
    const held = heldReferral()
    report({
      kind: 'state',
      storage: storedKeys(),
      requests: net.apiRequests(),
      offline: net.isOffline(),
      loaded,
      refusal,
      attribution: held.code,
      visitorId: held.visitorId,
      widget: widgetState(),
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
        // A widget that refuses to start says why on the console as it runs. Without a word it
        // is still starting: with data-outbound it loads that part first.
        else if (!started() && errors.length > 0) {
          refusal = withoutPrefix(errors[errors.length - 1] ?? '')
        }
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

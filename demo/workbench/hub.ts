// What the demo page hears from its widgets: the frames' messages (checked for origin and
// shape) and the Preact widget's events, gathered in stores the live views read.
import { atom, map } from 'nanostores'
import { installNetworkSim } from '../frames/network.ts'
import {
  CHANNEL,
  type Command,
  demoOrigins,
  FrameMessage,
  type Role,
  type Without,
} from '../frames/protocol.ts'

export type Source = 'script tag' | 'Preact' | 'visitor'

export interface LoggedEvent {
  id: number
  at: number
  source: Source
  /** A Referral.on(...) name, or console.error / console.warn. */
  name: string
  detail: string
}

export type FrameState = Extract<FrameMessage, { kind: 'state' }> & { receivedAt: number }

const MAX_EVENTS = 300
export const origins = demoOrigins()

/** The Preact widget runs in this page: its requests to /v1 are counted, and can go offline. */
export const pageNetwork = installNetworkSim({ apiOnly: true })

export const $events = atom<LoggedEvent[]>([])
export const $frames = map<Partial<Record<Role, FrameState>>>({})
export const $frameHeights = map<Partial<Record<Role, number>>>({})
/** The last command answer of each frame (e.g. "Signup of friend_1 recorded."). */
export const $notices = map<Partial<Record<Role, string>>>({})
/** The referrer's current share link, from the newest `link` event. */
export const $shareUrl = atom<string | null>(null)
export const $offline = atom(false)

let nextId = 1
export function logEvent(source: Source, name: string, detail: string, at = Date.now()) {
  const entry: LoggedEvent = { id: nextId++, at, source, name, detail }
  $events.set([entry, ...$events.get()].slice(0, MAX_EVENTS))
}

const sourceOf = (role: Role): Source => (role === 'referrer' ? 'script tag' : 'visitor')

/** The windows that may talk to this page: the frames and a visitor tab. */
const windows = new Map<Role, Set<() => Window | null | undefined>>()
export function registerWindow(role: Role, get: () => Window | null | undefined) {
  const set = windows.get(role) ?? new Set()
  set.add(get)
  windows.set(role, set)
  return () => set.delete(get)
}

const targetsOf = (role: Role): Window[] =>
  [...(windows.get(role) ?? [])]
    .map((get) => get())
    .filter((target): target is Window => Boolean(target && !target.closed))

/**
 * Where each role's pages may be: the visitor's on the shop's origin or the app's, or on this
 * page's own when the share link is opened in the referrer's browser.
 */
const originsOf = (role: Role): string[] =>
  role === 'visitor'
    ? [origins.visitor ?? origins.main, ...(origins.app ? [origins.app] : []), origins.main]
    : [origins.main]
/** Every origin a page of the demo may speak from: nothing else is even read. */
const frameOrigins = new Set([...originsOf('referrer'), ...originsOf('visitor')])

/**
 * The origin each window last spoke from: the visitor's frame moves from the shop to the app
 * when the visitor follows the hand-off link, and a command must name the origin it is on now.
 */
const spokeFrom = new WeakMap<Window, string>()

export function sendCommand(role: Role, command: Without<Command, 'channel'>) {
  for (const target of targetsOf(role)) {
    try {
      const origin = spokeFrom.get(target) ?? originsOf(role)[0] ?? origins.main
      target.postMessage({ channel: CHANNEL, ...command }, origin)
    } catch {
      // Closed meanwhile, or navigated elsewhere.
    }
  }
}

window.addEventListener('message', (event: MessageEvent) => {
  if (!frameOrigins.has(event.origin)) return
  const parsed = FrameMessage.safeParse(event.data)
  if (!parsed.success) return
  const message = parsed.data
  if (!originsOf(message.role).includes(event.origin)) return
  const source = targetsOf(message.role).find((target) => target === event.source)
  if (!source) return
  spokeFrom.set(source, event.origin)
  switch (message.kind) {
    case 'hello':
      // Before the frame loads its widget: the simulated offline state applies from the start.
      ;(event.source as Window).postMessage(
        { channel: CHANNEL, kind: 'offline', on: $offline.get() },
        event.origin,
      )
      return
    case 'event':
      logEvent(sourceOf(message.role), message.name, message.detail, message.at)
      if (message.role === 'referrer' && message.url) $shareUrl.set(message.url)
      return
    case 'console':
      logEvent(sourceOf(message.role), `console.${message.level}`, message.text, message.at)
      return
    case 'state':
      $frames.setKey(message.role, { ...message, receivedAt: Date.now() })
      return
    case 'size':
      $frameHeights.setKey(message.role, message.height)
      return
    case 'done':
      $notices.setKey(message.role, message.text)
      return
  }
})

$offline.listen((offline) => {
  pageNetwork.setOffline(offline)
  sendCommand('referrer', { kind: 'offline', on: offline })
  sendCommand('visitor', { kind: 'offline', on: offline })
})

/** Requests to /v1 made by this page (the Preact widget's), failed ones included. */
export const $pageRequests = atom(0)
pageNetwork.onChange(() => $pageRequests.set(pageNetwork.apiRequests()))

// The Preact widget's console messages (a refused key, an ignored option): into the stream.
for (const level of ['error', 'warn'] as const) {
  const original = console[level].bind(console)
  console[level] = (...args: unknown[]) => {
    original(...args)
    const [first] = args
    if (typeof first === 'string' && first.startsWith('[referral]')) {
      logEvent('Preact', `console.${level}`, args.map(String).join(' '))
    }
  }
}

/** Bumped after an action, so every live view asks again at once. */
export const $refresh = atom(0)
export const refreshAll = () => $refresh.set($refresh.get() + 1)

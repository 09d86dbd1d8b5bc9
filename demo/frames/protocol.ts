// What the demo page and its widget frames (the script-tag referrer page and the visitor page)
// say to each other through postMessage. Both sides parse what they receive: a message that
// does not fit is ignored.
import * as z from 'zod/mini'
import { EVENTS } from '../../src/core/types.ts'

export const CHANNEL = 'referral-demo'

export const Role = z.enum(['referrer', 'visitor'])
export type Role = z.infer<typeof Role>

/** The Referral.on(...) names the demo listens to: every public one but the widget's own end. */
export const EVENT_NAMES = EVENTS.filter((name) => name !== 'destroyed')

const base = { channel: z.literal(CHANNEL), role: Role }

/** From a frame (or a visitor tab) to the demo page. */
export const FrameMessage = z.discriminatedUnion('kind', [
  z.object({ ...base, kind: z.literal('hello') }),
  z.object({
    ...base,
    kind: z.literal('event'),
    name: z.string(),
    detail: z.string(),
    /** The share URL, for `link` events. */
    url: z.optional(z.string()),
    at: z.number(),
  }),
  z.object({
    ...base,
    kind: z.literal('console'),
    level: z.enum(['error', 'warn']),
    text: z.string(),
    at: z.number(),
  }),
  z.object({
    ...base,
    kind: z.literal('state'),
    /** Every `referral:` key of the frame's localStorage, with its raw value. */
    storage: z.array(z.tuple([z.string(), z.string()])),
    /** Requests the page made to /v1 (fetch and sendBeacon), refused ones included. */
    requests: z.number(),
    offline: z.boolean(),
    /** The widget script ran (or failed to load). */
    loaded: z.boolean(),
    refusal: z.nullable(z.string()),
    /** The code of the referral the widget holds (Referral.getAttribution()). */
    attribution: z.nullable(z.string()),
    /** The visitor id that referral is held for: the same on both domains after a hand-off. */
    visitorId: z.nullable(z.string()),
    /** The panel's data-state (loading, ready, empty, error), or `banner` when it shows. */
    widget: z.nullable(z.string()),
    href: z.string(),
  }),
  z.object({ ...base, kind: z.literal('size'), height: z.number() }),
  z.object({ ...base, kind: z.literal('done'), command: z.string(), text: z.string() }),
])
export type FrameMessage = z.infer<typeof FrameMessage>

/** From the demo page to a frame. */
export const Command = z.discriminatedUnion('kind', [
  z.object({ channel: z.literal(CHANNEL), kind: z.literal('offline'), on: z.boolean() }),
  z.object({ channel: z.literal(CHANNEL), kind: z.literal('signup'), userId: z.string() }),
  z.object({ channel: z.literal(CHANNEL), kind: z.literal('forget') }),
  z.object({ channel: z.literal(CHANNEL), kind: z.literal('consent'), granted: z.boolean() }),
  z.object({ channel: z.literal(CHANNEL), kind: z.literal('flush') }),
])
export type Command = z.infer<typeof Command>

/** Distributes Omit over a union, so each message keeps its own fields. */
export type Without<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never

/**
 * The two names of the dev server's loopback address, which a browser keeps apart as two sites:
 * the visitor's hand-off goes from the shop on one to the app on the other.
 */
const HOST_NAMES = ['localhost', '127.0.0.1'] as const

/** The other of the two names, or null for a host that is neither (a LAN address, say). */
export function otherHostName(hostname: string): string | null {
  if (hostname === HOST_NAMES[0]) return HOST_NAMES[1]
  if (hostname === HOST_NAMES[1]) return HOST_NAMES[0]
  return null
}

export interface DemoOrigins {
  /** The demo page's, where the service answers too. */
  main: string
  /** The simulated visitor's shop (another port: a storage of its own); null if none opened. */
  visitor: string | null
  /** The visitor's app "on another domain": the shop's port under the other host name. */
  app: string | null
}

/**
 * The demo's origins from the ports the Vite plugin announces, seen from a page at `here`. The
 * app page (`onApp`) is served under the other host name than the demo page's.
 */
export function originsOf(
  here: { protocol: string; hostname: string; origin: string },
  ports: { main?: unknown; visitor?: unknown },
  onApp = false,
): DemoOrigins {
  const home = onApp ? otherHostName(here.hostname) : here.hostname
  const at = (hostname: string | null, port: unknown) =>
    hostname && typeof port === 'number' && port > 0
      ? `${here.protocol}//${hostname}:${port}`
      : null
  const main = at(home, ports.main) ?? here.origin
  const visitor = at(home, ports.visitor)
  const shop = visitor === main ? null : visitor
  const app = shop && home ? at(otherHostName(home), ports.visitor) : null
  return { main, visitor: shop, app }
}

/** The page's origins, from the <meta> the Vite plugin adds to every page. */
export function demoOrigins(onApp = false): DemoOrigins {
  let ports: { main?: unknown; visitor?: unknown } = {}
  try {
    const meta = document.querySelector('meta[name="referral-demo-origins"]')
    ports = JSON.parse(meta?.getAttribute('content') ?? '{}') as typeof ports
  } catch {}
  return originsOf(location, ports, onApp)
}

/** A short, readable rendering of an event payload (errors included). */
export function describe(payload: unknown): string {
  return JSON.stringify(payload, (_key, value: unknown) =>
    value instanceof Error ? { error: value.name, message: value.message } : value,
  )
}

// The model behind the properties of what the widget reads back from storage
// (src/queue/queue.fuzz.test.ts and its examples): the namespace a widget of PUBLIC_KEY keeps its
// data under, and, independently of the widget's own readers, what of that data it may trust.
import {
  ATTRIBUTION_WINDOW_PATTERN,
  CURRENCY_PATTERN,
  LINK_ID_PATTERN,
} from '../../src/api/referrer-wire.ts'
import {
  CAMPAIGN_ID_PATTERN,
  CLIENT_ID_PATTERN,
  CODE_PATTERN,
  ISO_TIMESTAMP_PATTERN,
  type PublicCampaign,
  REFERRER_ID_PATTERN,
  type TrackedEvent,
} from '../../src/api/wire.ts'
import { shortHash } from '../../src/core/short-hash.ts'

const MINUTE = 60 * 1000
export const HOUR = 60 * MINUTE
export const DAY = 24 * HOUR
export const START = Date.UTC(2026, 0, 15, 12)
export const PUBLIC_KEY = 'pk_test_acme'
export const NAMESPACE = `referral:test:${shortHash(PUBLIC_KEY)}:`
export const USER = 'alice'
export const ARRIVAL_CODE = 'FRIEND2026'
export const CAMPAIGN: PublicCampaign = {
  id: 'camp_acmeFriendsAndFamily',
  name: 'Friends & family',
  status: 'active',
  rewardTrigger: 'signup',
  referrerReward: { type: 'credit', amount: 1000, currency: 'USD' },
  referredReward: { type: 'credit', amount: 1000, currency: 'USD' },
  attributionWindow: '30d',
  createdAt: '2025-06-01T00:00:00.000Z',
}
/** Keys of another mode or another site: never read, never sent, never touched. */
export const FOREIGN_PREFIXES = [
  `referral:live:${shortHash('pk_live_acme')}:q:`,
  `referral:test:${shortHash('pk_test_other')}:q:`,
  `${NAMESPACE.slice(0, -1)}q:`,
]

// --- an independent model of what the widget may trust --------------------------------------

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
export const field = (value: Record<string, unknown>, name: string) =>
  Object.hasOwn(value, name) ? value[name] : undefined
const text = (value: unknown, pattern?: RegExp) =>
  typeof value === 'string' && (!pattern || pattern.test(value))
const optionalText = (value: unknown, pattern: RegExp) =>
  value === undefined || text(value, pattern)
const finite = (value: unknown) => typeof value === 'number' && Number.isFinite(value)
const all = (value: unknown, check: (item: unknown) => boolean) =>
  Array.isArray(value) && value.every(check)
const versioned =
  (fields: Record<string, (value: unknown) => boolean>) =>
  (value: unknown): boolean =>
    isRecord(value) &&
    field(value, 'v') === 1 &&
    Object.entries(fields).every(([name, check]) => check(field(value, name)))
const shaped =
  (fields: Record<string, (value: unknown) => boolean>) =>
  (value: unknown): boolean =>
    isRecord(value) && Object.entries(fields).every(([name, check]) => check(field(value, name)))

export const eventFields = {
  id: (value: unknown) => text(value, CLIENT_ID_PATTERN),
  type: (value: unknown) => value === 'click' || value === 'signup',
  code: (value: unknown) => optionalText(value, CODE_PATTERN),
  visitorId: (value: unknown) => text(value, CLIENT_ID_PATTERN),
  userId: (value: unknown) => optionalText(value, REFERRER_ID_PATTERN),
  occurredAt: (value: unknown) => optionalText(value, ISO_TIMESTAMP_PATTERN),
}
/** An event as the contract has it: what may reach the service. */
export const isWireEvent = shaped(eventFields)
/** A stored event the widget may send: the contract's shape, and the field its type requires. */
const hasStoredFields = shaped({
  ...eventFields,
  queuedAt: finite,
  attempts: finite,
  serviceAt: (value) => value === undefined || finite(value),
})
export const isStoredEvent = (value: unknown): boolean =>
  hasStoredFields(value) &&
  isRecord(value) &&
  field(value, field(value, 'type') === 'click' ? 'code' : 'userId') !== undefined
const isReward = shaped({
  type: (value) => value === 'credit',
  amount: (value) => finite(value) && (value as number) >= 0 && (value as number) <= 1_000_000,
  currency: (value) => text(value, CURRENCY_PATTERN),
})

export type Slot =
  | 'chunk'
  | 'delivery'
  | 'visitor'
  | 'attribution'
  | 'clicks'
  | 'campaign'
  | 'link'
  | 'banner'
  | 'consent'
  | 'lease'

/** A chunk the widget reads event by event (one it cannot read is discarded whole). */
export const isReadableChunk = versioned({ events: Array.isArray })

const TRUSTED: Record<Slot, (value: unknown) => boolean> = {
  chunk: versioned({ events: (value) => all(value, isStoredEvent) }),
  delivery: versioned({
    pausedUntil: finite,
    attempt: finite,
    nextAttemptAt: finite,
    since: finite,
  }),
  visitor: versioned({ id: (value) => text(value, CLIENT_ID_PATTERN) }),
  attribution: versioned({ code: (value) => text(value, CODE_PATTERN), capturedAt: finite }),
  clicks: versioned({ codes: (value) => all(value, (code) => text(code, CODE_PATTERN)) }),
  campaign: versioned({
    campaign: shaped({
      id: (value) => text(value, CAMPAIGN_ID_PATTERN),
      name: (value) => text(value),
      status: (value) => value === 'active' || value === 'paused' || value === 'archived',
      rewardTrigger: (value) => text(value),
      referrerReward: isReward,
      referredReward: isReward,
      attributionWindow: (value) => text(value, ATTRIBUTION_WINDOW_PATTERN),
      createdAt: (value) => text(value, ISO_TIMESTAMP_PATTERN),
    }),
  }),
  link: versioned({
    link: shaped({
      id: (value) => text(value, LINK_ID_PATTERN),
      code: (value) => text(value, CODE_PATTERN),
      campaignId: (value) => text(value),
      referrerId: (value) => text(value),
      createdAt: (value) => text(value, ISO_TIMESTAMP_PATTERN),
    }),
  }),
  banner: versioned({ dismissed: (value) => all(value, (code) => text(code, CODE_PATTERN)) }),
  consent: versioned({ granted: (value) => value === true }),
  lease: shaped({ owner: (value) => text(value), expiresAt: finite }),
}

export const jsonOf = (raw: string | null): unknown => {
  try {
    return raw === null ? undefined : JSON.parse(raw)
  } catch {
    return undefined
  }
}
export const trusted = (slot: Slot, raw: string) => TRUSTED[slot](jsonOf(raw))

/** Where each named slot lives under the namespace. */
export const NAMES: Record<Exclude<Slot, 'chunk'>, string> = {
  delivery: 'delivery',
  visitor: 'visitor',
  attribution: 'attribution',
  clicks: 'clicks',
  campaign: 'campaign:newest',
  link: `link:${CAMPAIGN.id}:${shortHash(USER)}`,
  banner: 'banner',
  consent: 'consent',
  lease: 'lease',
}
export const slotOf = (key: string): Slot | undefined => {
  if (!key.startsWith(NAMESPACE)) return undefined
  const name = key.slice(NAMESPACE.length)
  if (name.startsWith('q:')) return 'chunk'
  return (Object.keys(NAMES) as Array<keyof typeof NAMES>).find((slot) => NAMES[slot] === name)
}

export type StoredEvent = TrackedEvent & { queuedAt: number; serviceAt?: number }

/** The values in a stored chunk's events list (none where it has none). */
export function storedValues(raw: string): unknown[] {
  const chunk = jsonOf(raw)
  return isRecord(chunk) && Array.isArray(chunk.events) ? chunk.events : []
}

/** The events of a stored chunk that the model trusts. */
export const storedEvents = (raw: string) =>
  storedValues(raw).filter(isStoredEvent) as StoredEvent[]

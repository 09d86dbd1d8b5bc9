// What the widget may find in storage, for the properties of src/queue/queue.fuzz.test.ts:
// well-formed values of every slot, near misses of them, any JSON and any text, gathered into a
// world of stored data (with another mode's or site's data beside it).
import fc from 'fast-check'
import { CURRENCY_PATTERN, LINK_ID_PATTERN } from '../../src/api/referrer-wire.ts'
import {
  CAMPAIGN_ID_PATTERN,
  CLIENT_ID_PATTERN,
  CODE_PATTERN,
  REFERRER_ID_PATTERN,
} from '../../src/api/wire.ts'
import {
  CAMPAIGN,
  DAY,
  FOREIGN_PREFIXES,
  HOUR,
  isRecord,
  NAMES,
  NAMESPACE,
  type Slot,
  START,
  USER,
} from './stored-data-model.ts'

// --- generators: well-formed values, and near misses of them ----------------------------------

const clientId = fc.stringMatching(CLIENT_ID_PATTERN)
const code = fc.stringMatching(CODE_PATTERN)
const isoTime = fc
  .integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2100, 0, 1) })
  .map((at) => new Date(at).toISOString())
const aroundNow = fc.integer({ min: START - 2 * HOUR, max: START + 2 * HOUR })

/** Times on both sides of the default age bound (7 days), and a little in the future. */
const storedTime = fc.integer({ min: START - 9 * DAY, max: START + HOUR })
const storedFields = {
  id: clientId,
  code,
  visitorId: clientId,
  userId: fc.stringMatching(REFERRER_ID_PATTERN),
  occurredAt: isoTime,
  queuedAt: storedTime,
  attempts: fc.nat(40),
  serviceAt: storedTime,
}
// A click carries its code, a signup its user id; the other fields may be missing.
const storedEvent = fc.oneof(
  fc.record(
    { ...storedFields, type: fc.constant<'click' | 'signup'>('click') },
    { requiredKeys: ['id', 'type', 'visitorId', 'queuedAt', 'attempts', 'code'] },
  ),
  fc.record(
    { ...storedFields, type: fc.constant<'click' | 'signup'>('signup') },
    { requiredKeys: ['id', 'type', 'visitorId', 'queuedAt', 'attempts', 'userId'] },
  ),
)
const chunkOf = (minLength: number) =>
  fc.record({ v: fc.constant(1), events: fc.array(storedEvent, { minLength, maxLength: 5 }) })
const reward = fc.record({
  type: fc.constant('credit'),
  amount: fc.integer({ min: 0, max: 1_000_000 }),
  currency: fc.stringMatching(CURRENCY_PATTERN),
})

const WELL_FORMED: Record<Slot, fc.Arbitrary<unknown>> = {
  chunk: chunkOf(0),
  delivery: fc.record({
    v: fc.constant(1),
    pausedUntil: aroundNow,
    attempt: fc.integer({ min: 0, max: 30 }),
    nextAttemptAt: aroundNow,
    since: aroundNow,
  }),
  visitor: fc.record({ v: fc.constant(1), id: clientId }),
  attribution: fc.record({
    v: fc.constant(1),
    code,
    capturedAt: fc.integer({ min: START - 40 * DAY, max: START }),
  }),
  clicks: fc.record({ v: fc.constant(1), codes: fc.array(code, { maxLength: 60 }) }),
  campaign: fc.record({
    v: fc.constant(1),
    campaign: fc.record({
      id: fc.oneof(fc.constant(CAMPAIGN.id), fc.stringMatching(CAMPAIGN_ID_PATTERN)),
      name: fc.string(),
      status: fc.constantFrom('active', 'paused', 'archived'),
      rewardTrigger: fc.string(),
      referrerReward: reward,
      referredReward: reward,
      attributionWindow: fc.integer({ min: 1, max: 365 }).map((days) => `${days}d`),
      createdAt: isoTime,
    }),
  }),
  link: fc.record({
    v: fc.constant(1),
    link: fc.record({
      id: fc.stringMatching(LINK_ID_PATTERN),
      code,
      campaignId: fc.oneof(fc.constant(CAMPAIGN.id), fc.string()),
      referrerId: fc.oneof(fc.constant(USER), fc.string()),
      createdAt: isoTime,
    }),
  }),
  banner: fc.record({ v: fc.constant(1), dismissed: fc.array(code, { maxLength: 5 }) }),
  consent: fc.constant({ v: 1, granted: true }),
  lease: fc.record({ owner: fc.string(), expiresAt: aroundNow }),
}

/** Stands for a number JSON.stringify cannot write: replaced by 1e400 (Infinity when parsed). */
const OVERFLOW = '\u0000overflow\u0000'
const oddValue = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom<unknown>(
    1e20,
    -1e20,
    Number.MAX_VALUE,
    -Number.MAX_VALUE,
    8.64e15 + 1,
    -8.64e15 - 1,
    -1,
    -0.5,
    0,
    0.5,
    '1',
    '',
    'true',
    true,
    false,
    null,
    [],
    {},
    OVERFLOW,
  ),
)

type Path = Array<string | number>
/** Paths to every member of every object and array in a JSON value. */
function members(value: unknown, path: Path = []): Path[] {
  const entries: Array<[string | number, unknown]> = Array.isArray(value)
    ? value.map((item, index) => [index, item])
    : isRecord(value)
      ? Object.entries(value)
      : []
  return entries.flatMap(([name, item]) => [[...path, name], ...members(item, [...path, name])])
}
const at = (root: unknown, path: Path): unknown =>
  path.reduce<unknown>((value, name) => (value as Record<string | number, unknown>)[name], root)
/** An own property even for `__proto__`, as JSON.parse makes it. */
const define = (target: object, name: string | number, value: unknown) =>
  Object.defineProperty(target, name, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  })

const mutation = fc.record({
  kind: fc.constantFrom('set', 'set', 'delete', 'extra', 'version'),
  at: fc.nat(),
  name: fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'extra', 'v', 'id'),
  value: oddValue,
})
type Mutation = typeof mutation extends fc.Arbitrary<infer M> ? M : never

/** A well-formed value changed in one place: a wrong type, a missing or extra field, odd numbers. */
function mutate(root: unknown, { value: shared, ...change }: Mutation): unknown {
  // Generated values (the constant [] and {} among them) may be shared: insert a copy.
  const value = structuredClone(shared)
  if (change.kind === 'version' && isRecord(root)) {
    define(root, 'v', value)
    return root
  }
  if (change.kind === 'extra') {
    const objects = [[], ...members(root)].filter((path) => isRecord(at(root, path)))
    const target = at(root, objects[change.at % objects.length] ?? [])
    if (isRecord(target)) define(target, change.name, value)
    return root
  }
  const paths = members(root)
  const path = paths[change.at % paths.length]
  if (path === undefined) return value
  const parent = at(root, path.slice(0, -1)) as Record<string | number, unknown>
  const name = path[path.length - 1] as string | number
  if (change.kind === 'delete') {
    if (Array.isArray(parent)) parent.splice(name as number, 1)
    else delete parent[name]
  } else {
    define(parent, name, value)
  }
  return root
}

const nearly = (wellFormed: fc.Arbitrary<unknown>) =>
  fc
    .tuple(wellFormed, fc.array(mutation, { minLength: 1, maxLength: 3 }))
    .map(([value, changes]) => changes.reduce(mutate, structuredClone(value)))

const serialized = (value: unknown) =>
  JSON.stringify(value).replaceAll(JSON.stringify(OVERFLOW), '1e400')

/** What a storage slot may hold: well-formed, nearly, any JSON, any text. */
const storedText = (slot: Slot) =>
  fc.oneof(
    { weight: 2, arbitrary: WELL_FORMED[slot].map(serialized) },
    { weight: 5, arbitrary: nearly(WELL_FORMED[slot]).map(serialized) },
    { weight: 1, arbitrary: fc.json({ maxDepth: 2 }) },
    { weight: 1, arbitrary: fc.string() },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('', 'null', '{}', '[]', '{"v":1}', 'undefined', '{"v":1', 'NaN'),
    },
  )

const namedSlots = Object.keys(NAMES) as Array<keyof typeof NAMES>

export const storedWorld = fc.record({
  named: fc.record(
    Object.fromEntries(namedSlots.map((slot) => [slot, storedText(slot)])) as Record<
      keyof typeof NAMES,
      fc.Arbitrary<string>
    >,
    { requiredKeys: [] },
  ),
  chunks: fc.array(fc.tuple(fc.string({ maxLength: 12 }), storedText('chunk')), { maxLength: 6 }),
  /** Always one well-formed chunk among the rest. */
  wellFormed: fc.tuple(fc.string({ maxLength: 12 }), chunkOf(1)),
  foreign: fc.array(
    fc.tuple(fc.constantFrom(...FOREIGN_PREFIXES), fc.string({ maxLength: 8 }), chunkOf(1)),
    { maxLength: 2 },
  ),
  /** Whether the page's address carries a referral code. */
  arrived: fc.boolean(),
  /**
   * Whether the service's answers carry a Date header (it always does; something in between
   * may strip it): without one the page never learns the service's time.
   */
  dated: fc.boolean(),
  /** For the widget's ids and jitter, so a failing run replays exactly. */
  seed: fc.integer(),
})
export type StoredWorld = typeof storedWorld extends fc.Arbitrary<infer W> ? W : never

/** The storage contents of a world, in write order (a later key overwrites an earlier one). */
export function contents(world: StoredWorld): Map<string, string> {
  const items = new Map<string, string>()
  for (const [slot, raw] of Object.entries(world.named)) {
    if (raw !== undefined) items.set(NAMESPACE + NAMES[slot as keyof typeof NAMES], raw)
  }
  for (const [suffix, raw] of world.chunks) items.set(`${NAMESPACE}q:${suffix}`, raw)
  const [suffix, chunk] = world.wellFormed
  items.set(`${NAMESPACE}q:${suffix}`, serialized(chunk))
  for (const [prefix, name, foreign] of world.foreign) items.set(prefix + name, serialized(foreign))
  return items
}

// The authorization matrix (CONTRACT.md "Keys, modes, organizations"): each demo key of both
// organizations, against every route of the interface (authorization-operations.ts), aimed at
// data that really exists in each organization and mode (authorization-worlds.ts), so that a
// wrong 200 shows as clearly as a wrong 404. A refused request leaves every world as it was; an
// accepted one changes nothing outside its caller's world.

import { beforeEach, describe, expect, it } from 'vitest'
import type { EventsResponse } from '../../demo/service/schemas.ts'
import { OPERATIONS } from './authorization-operations.ts'
import {
  type Context,
  type Fixture,
  KINDS,
  type Kind,
  keyOf,
  makeFixture,
  type Operation,
  type Outcome,
  type Request,
  sameWorld,
  snapshot,
  WORLDS,
  type World,
  worldName,
} from './authorization-worlds.ts'
import { type Answer, type CallOptions, DEMO_KEYS, errorOf, HOUR, setup } from './helpers.ts'

/** Keys that must be refused before anything else, aimed at acme/test, which they would reach. */
const REFUSED_KEYS: ReadonlyArray<{
  label: string
  outcome: Outcome
  key: (ctx: Context) => string | undefined
}> = [
  { label: 'no key', outcome: '401 missing_api_key', key: () => undefined },
  {
    label: 'malformed key sk_test_ac!me',
    outcome: '401 invalid_api_key',
    key: () => 'sk_test_ac!me',
  },
  {
    label: 'unknown key pk_test_nobody',
    outcome: '401 invalid_api_key',
    key: () => 'pk_test_nobody',
  },
  {
    label: `expired ${DEMO_KEYS.acmeRolled}`,
    outcome: '401 expired_api_key',
    key: () => DEMO_KEYS.acmeRolled,
  },
  {
    label: 'expired pk_test_acme (rolled 25 h ago)',
    outcome: '401 expired_api_key',
    key: ({ service, clock }) => {
      service.rollKey(DEMO_KEYS.acme.pkTest)
      clock.advance(25 * HOUR)
      return DEMO_KEYS.acme.pkTest
    },
  },
]

async function send(ctx: Context, request: Request, key: string | undefined) {
  if (request.beacon) {
    const body = { ...(key === undefined ? {} : { key }), ...(request.body as object) }
    return ctx.call(request.method, request.path, {
      body: JSON.stringify(body),
      headers: { 'Content-Type': 'text/plain' },
    })
  }
  const options: CallOptions = {}
  if (request.headers !== undefined) options.headers = request.headers
  if (key !== undefined) options.key = key
  if (request.body !== undefined) options.body = request.body
  return ctx.call(request.method, request.path, options)
}

function expectOutcome(answer: Answer, outcome: Outcome) {
  const [status, code, eventCode] = outcome.split(' ')
  expect(answer.status, JSON.stringify(answer.body)).toBe(Number(status))
  if (answer.status >= 400) {
    expect(errorOf(answer).code).toBe(code)
  } else if (code !== undefined) {
    // '200 accepted' or '200 rejected unknown_code': the result of the one event sent.
    const [result] = (answer.body as EventsResponse).results
    expect(result?.status).toBe(code)
    if (eventCode !== undefined) expect(result?.error?.code).toBe(eventCode)
  }
}

const isRefused = (outcome: Outcome) => !/^20[01]( accepted)?$/.test(outcome)

interface Row {
  name: string
  operation: Operation
  /** The caller's key kind and world; absent for the keys refused outright. */
  caller?: { kind: Kind } & World
  refusedKey?: (typeof REFUSED_KEYS)[number]
  target: World
  outcome: Outcome
}

const ROWS: Row[] = []
for (const operation of OPERATIONS) {
  for (const kind of KINDS) {
    for (const callerWorld of WORLDS) {
      const targets = operation.targeted ? WORLDS : [callerWorld]
      for (const target of targets) {
        const own = sameWorld(callerWorld, target)
        const outcome = operation[kind][own ? 0 : 1]
        const aim = operation.targeted ? ` → ${worldName(target)}` : ''
        ROWS.push({
          name: `${kind}_${callerWorld.mode} · ${callerWorld.org}${aim} · ${operation.label} → ${outcome}`,
          operation,
          caller: { kind, ...callerWorld },
          target,
          outcome,
        })
      }
    }
  }
  for (const refusedKey of REFUSED_KEYS) {
    ROWS.push({
      name: `${refusedKey.label} → acme/test · ${operation.label} → ${refusedKey.outcome}`,
      operation,
      refusedKey,
      target: { org: 'acme', mode: 'test' },
      outcome: refusedKey.outcome,
    })
  }
}

describe('authorization matrix', () => {
  let ctx: Context

  beforeEach(async () => {
    const base = setup()
    const fixtures: Fixture[] = []
    for (const world of WORLDS) fixtures.push(await makeFixture(base, world))
    ctx = { ...base, fixtures }
  })

  it.each(ROWS.map((row) => [row.name, row] as const))('%s', async (_name, row) => {
    const target = ctx.fixtures.find((fixture) => sameWorld(fixture, row.target))
    if (!target) throw new Error(`no fixture for ${worldName(row.target)}`)
    const key = row.caller ? keyOf(row.caller.kind, row.caller) : row.refusedKey?.key(ctx)
    const before = await snapshot(ctx, target)

    const answer = await send(ctx, row.operation.request(target), key)

    expectOutcome(answer, row.outcome)
    const after = await snapshot(ctx, target)
    if (isRefused(row.outcome) || !row.operation.writes) {
      expect(after).toEqual(before)
    } else {
      // An accepted write stays inside its caller's organization and mode.
      ctx.fixtures.forEach((world, index) => {
        if (!row.caller || !sameWorld(world, row.caller)) {
          expect(after.stored[index]).toEqual(before.stored[index])
        }
      })
      if (row.caller && !sameWorld(row.caller, target)) {
        expect(after.seenByOwner).toEqual(before.seenByOwner)
      }
    }
    if (!isRefused(row.outcome) && row.caller) {
      await row.operation.verify?.({
        ctx,
        answer,
        kind: row.caller.kind,
        target,
        own: sameWorld(row.caller, target),
      })
    }
  })

  it('has rows for every route and method the service serves', () => {
    const served = ctx.service.app.routes
      .filter((route) => route.method !== 'ALL')
      .map((route) => `${route.method} ${route.path}`)
    const covered = OPERATIONS.map((operation) => operation.label.split(/[?(]/)[0]?.trim())
    expect(served).not.toEqual([])
    for (const route of served) expect(covered).toContain(route)
  })
})

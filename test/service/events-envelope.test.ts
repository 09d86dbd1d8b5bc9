// POST /v1/events: the envelope (CONTRACT.md "Events"): a body of `events`, 1 to 100 of them,
// and nothing else, or a 400 that records nothing.

import { describe, expect, it } from 'vitest'
import { click, makeLink, NO_ACTIVITY, pkTest, send, stats } from './events-support.ts'
import { errorOf, setup } from './helpers.ts'

describe('the envelope', () => {
  it.each([
    ['an array', []],
    ['a string', 'events'],
    ['a number', 7],
    ['null', null],
  ])('refuses a body that is %s with 400', async (_, body) => {
    const { call } = setup()
    const answer = await call('POST', '/v1/events', { key: pkTest, body: JSON.stringify(body) })
    expect(answer.status).toBe(400)
    expect(errorOf(answer).type).toBe('invalid_request_error')
  })

  it('refuses a body without events: 400 parameter_missing naming events', async () => {
    const { call } = setup()
    const answer = await call('POST', '/v1/events', { key: pkTest, body: {} })
    expect(answer.status).toBe(400)
    expect(errorOf(answer)).toMatchObject({ code: 'parameter_missing', param: 'events' })
  })

  it.each([
    ['an object', { 0: { id: 'evt_00000000' } }],
    ['a string', 'click'],
    ['null', null],
  ])('refuses events that is %s: 400 parameter_invalid naming events', async (_, events) => {
    const { call } = setup()
    const answer = await call('POST', '/v1/events', { key: pkTest, body: { events } })
    expect(answer.status).toBe(400)
    expect(errorOf(answer)).toMatchObject({
      type: 'invalid_request_error',
      code: 'parameter_invalid',
      param: 'events',
    })
  })

  it('refuses 0 events with 400', async () => {
    const { call } = setup()
    const answer = await send(call, [])
    expect(answer.status).toBe(400)
    expect(errorOf(answer)).toMatchObject({ code: 'parameter_invalid', param: 'events' })
  })

  it('refuses 101 events with 400 and records none of them', async () => {
    const { call } = setup()
    const code = await makeLink(call, 'alice')
    const events = Array.from({ length: 101 }, (_, i) => click(code, `visitor_${i}_xx`))

    const answer = await send(call, events)
    expect(answer.status).toBe(400)
    expect(errorOf(answer)).toMatchObject({ code: 'parameter_invalid', param: 'events' })
    expect(await stats(call)).toEqual(NO_ACTIVITY)
  })

  it('takes 100 events in one request and answers one result for each', async () => {
    const { call } = setup()
    const code = await makeLink(call, 'alice')
    const events = Array.from({ length: 100 }, (_, i) => click(code, `visitor_${i}_xx`))

    const answer = await send(call, events)
    expect(answer.status).toBe(200)
    expect(answer.body.results).toHaveLength(100)
    expect(answer.body.results.every((result) => result.status === 'accepted')).toBe(true)
    expect((await stats(call)).totalClicks).toBe(100)
  })

  it('refuses an unknown top-level field: 400 parameter_unknown, nothing recorded', async () => {
    const { call } = setup()
    const code = await makeLink(call, 'alice')
    const answer = await call('POST', '/v1/events', {
      key: pkTest,
      body: { events: [click(code, 'visitor_one')], batch: 1 },
    })
    expect(answer.status).toBe(400)
    expect(errorOf(answer)).toMatchObject({ code: 'parameter_unknown', param: 'batch' })
    expect((await stats(call)).totalClicks).toBe(0)
  })

  it('refuses a body that is not JSON: 400 invalid_json', async () => {
    const { call } = setup()
    const answer = await call('POST', '/v1/events', { key: pkTest, body: '{"events": [' })
    expect(answer.status).toBe(400)
    expect(errorOf(answer).code).toBe('invalid_json')
  })
})

// The checkout reference (WIDGET.md section 13): `r1-<code>-<visitorId>-<check>`, written by the
// widget, read back strictly by the server; a reference changed on its way never names another
// referral.
import { createHash } from 'node:crypto'
import { describe, expect, it, vi } from 'vitest'
import { makeCheckoutReference, readCheckoutReference } from './checkout-reference.ts'

/** Stripe's client_reference_id: 1-200 of A-Z a-z 0-9 _ -. */
const STRIPE_SLOT = /^[A-Za-z0-9_-]{1,200}$/
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-'

describe('makeCheckoutReference', () => {
  it('is r1-<code>-<visitorId>-<first 8 hex of SHA-256 of "r1-<code>-<visitorId>">', async () => {
    const body = 'r1-AbC123xy-v_visitor-0001'
    const check = createHash('sha256').update(body, 'utf8').digest('hex').slice(0, 8)
    expect(await makeCheckoutReference('AbC123xy', 'v_visitor-0001')).toBe(`${body}-${check}`)
  })

  it('fits Stripe’s client_reference_id at the longest code and visitor id', async () => {
    const reference = await makeCheckoutReference('C'.repeat(12), 'v'.repeat(64))
    expect(reference).toMatch(STRIPE_SLOT)
    expect(reference).toHaveLength(89)
  })

  it.each([
    ['a code too short', 'AbC123x', 'v_visitor_0001'],
    ['a code with a dash', 'AbC-23xy', 'v_visitor_0001'],
    ['a code too long', 'A'.repeat(13), 'v_visitor_0001'],
    ['a visitor id too short', 'AbC123xy', 'v_1'],
    ['a visitor id with a dot', 'AbC123xy', 'v.visitor.0001'],
    ['a visitor id too long', 'AbC123xy', 'v'.repeat(65)],
    ['no code', undefined, 'v_visitor_0001'],
  ])('null for %s', async (_what, code, visitorId) => {
    expect(await makeCheckoutReference(code as string, visitorId)).toBeNull()
  })

  it('null where Web Crypto is missing (a page on plain http)', async () => {
    vi.stubGlobal('crypto', undefined)
    try {
      expect(await makeCheckoutReference('AbC123xy', 'v_visitor_0001')).toBeNull()
    } finally {
      vi.unstubAllGlobals()
    }
  })
})

describe('readCheckoutReference', () => {
  it('reads back what make wrote, visitor ids with dashes and underscores included', async () => {
    for (const [code, visitorId] of [
      ['AbC123xy', 'v_visitor_0001'],
      ['ZZZZZZZZZZZZ', 'a-b-c-d-e-f-g-h'],
      ['12345678', '--------'],
      ['abcdefgh', `_${'x'.repeat(62)}-`],
    ] as const) {
      const reference = await makeCheckoutReference(code, visitorId)
      expect(await readCheckoutReference(reference)).toEqual({ code, visitorId })
    }
  })

  it.each([
    ['undefined', undefined, 'absent'],
    ['null', null, 'absent'],
    ['an empty string', '', 'absent'],
    ['a number', 42, 'malformed'],
    ['an object', { code: 'AbC123xy' }, 'malformed'],
    ['the site’s own id', 'user_42', 'malformed'],
    ['spaces around it', ' r1-AbC123xy-v_visitor_0001-0a1b2c3d', 'malformed'],
    ['an upper-case check', 'r1-AbC123xy-v_visitor_0001-0A1B2C3D', 'malformed'],
    ['a short check', 'r1-AbC123xy-v_visitor_0001-0a1b2c3', 'malformed'],
    ['no visitor id', 'r1-AbC123xy-0a1b2c3d', 'malformed'],
    ['a text of 201 characters', `r1-${'x'.repeat(198)}`, 'malformed'],
    ['version 2', 'r2-AbC123xy-v_visitor_0001-0a1b2c3d', 'unknown_version'],
    ['version 10', 'r10-anything', 'unknown_version'],
    ['a check of other text', 'r1-AbC123xy-v_visitor_0001-00000000', 'check_failed'],
  ])('%s: %s', async (_what, text, problem) => {
    expect(await readCheckoutReference(text)).toEqual({ problem })
  })

  it('a character changed anywhere is never read as another referral', async () => {
    const code = 'AbC123xy'
    const visitorId = 'v_visitor-0001'
    const reference = (await makeCheckoutReference(code, visitorId)) as string
    const problems = new Set<string>()
    for (let at = 0; at < reference.length; at++) {
      for (const character of ALPHABET) {
        if (character === reference[at]) continue
        const changed = reference.slice(0, at) + character + reference.slice(at + 1)
        const read = await readCheckoutReference(changed)
        expect(read, changed).toHaveProperty('problem')
        problems.add((read as { problem: string }).problem)
      }
      // Dropped or doubled too.
      for (const changed of [
        reference.slice(0, at) + reference.slice(at + 1),
        reference.slice(0, at) + reference.slice(at, at + 1) + reference.slice(at),
      ]) {
        expect(await readCheckoutReference(changed), changed).toHaveProperty('problem')
      }
    }
    expect([...problems].sort()).toEqual(['check_failed', 'malformed', 'unknown_version'])
  })

  it('rejects (never answers wrongly) where Web Crypto is missing', async () => {
    const reference = await makeCheckoutReference('AbC123xy', 'v_visitor_0001')
    vi.stubGlobal('crypto', undefined)
    try {
      await expect(readCheckoutReference(reference)).rejects.toThrow(/Web Crypto/)
    } finally {
      vi.unstubAllGlobals()
    }
  })
})

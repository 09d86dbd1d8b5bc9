// Rate limits of public keys behind proxies (CONTRACT.md "Rate limits"): forwarding headers count
// only from a trusted proxy, and then give each client behind it a bucket of its own.

import { describe, expect, it } from 'vitest'
import { type Answer, setup } from './helpers.ts'
import { ask, CLIENT, expectLimited, header, OTHER_CLIENT, PROXY } from './rate-limit-support.ts'

describe('public keys: per client IP', () => {
  describe('forwarding headers', () => {
    it('ignores X-Forwarded-For without a trusted proxy: a client cannot escape its bucket', async () => {
      const { call } = setup({ pkRateLimit: 3 })
      for (const forged of ['192.0.2.1', '192.0.2.2', '192.0.2.3']) {
        expect((await ask(call, { headers: { 'X-Forwarded-For': forged } })).status).toBe(200)
      }
      expectLimited(await ask(call, { headers: { 'X-Forwarded-For': '192.0.2.4' } }))
      expectLimited(await ask(call))
    })

    it('ignores Forwarded without a trusted proxy', async () => {
      const { call } = setup({ pkRateLimit: 3 })
      for (const forged of ['192.0.2.1', '192.0.2.2', '192.0.2.3']) {
        expect((await ask(call, { headers: { Forwarded: `for=${forged}` } })).status).toBe(200)
      }
      expectLimited(await ask(call, { headers: { Forwarded: 'for=192.0.2.4' } }))
    })

    it('ignores forwarding headers from a peer that is not the trusted proxy', async () => {
      const { call } = setup({ pkRateLimit: 3, trustedProxies: [PROXY] })
      for (const forged of ['192.0.2.1', '192.0.2.2', '192.0.2.3']) {
        const answer = await ask(call, {
          headers: { 'X-Forwarded-For': forged, Forwarded: `for=${forged}` },
        })
        expect(answer.status).toBe(200)
      }
      expectLimited(await ask(call, { headers: { 'X-Forwarded-For': '192.0.2.4' } }))
    })

    it("uses the client address in the trusted proxy's X-Forwarded-For", async () => {
      const { call } = setup({ pkRateLimit: 3, trustedProxies: [PROXY] })
      const via = (client: string) =>
        ask(call, { ip: PROXY, headers: { 'X-Forwarded-For': client } })
      await via(CLIENT)
      await via(CLIENT)
      await via(CLIENT)
      expectLimited(await via(CLIENT))

      const other = await via(OTHER_CLIENT)
      expect(other.status).toBe(200)
      expect(header(other, 'RateLimit-Remaining')).toBe('2')
      // Clients behind the proxy do not share the proxy's own bucket either.
      expect((await ask(call, { ip: PROXY })).status).toBe(200)
    })

    it('does not let a client behind the trusted proxy escape by prepending addresses', async () => {
      const { call } = setup({ pkRateLimit: 3, trustedProxies: [PROXY] })
      // The proxy appends the address it saw to whatever the client sent.
      const forged = ['192.0.2.1', '192.0.2.2', '192.0.2.3', '192.0.2.4']
      const answers: Answer[] = []
      for (const lie of forged) {
        answers.push(
          await ask(call, { ip: PROXY, headers: { 'X-Forwarded-For': `${lie}, ${CLIENT}` } }),
        )
      }
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 429])
    })

    it("uses the client address in the trusted proxy's Forwarded header", async () => {
      const { call } = setup({ pkRateLimit: 3, trustedProxies: [PROXY] })
      const via = (client: string) =>
        ask(call, { ip: PROXY, headers: { Forwarded: `for=${client}` } })
      const answers: Answer[] = []
      for (let i = 0; i < 4; i++) answers.push(await via(CLIENT))
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 429])

      // Another client behind the same proxy has a bucket of its own.
      const other = await via(OTHER_CLIENT)
      expect(other.status).toBe(200)
    })
  })
})

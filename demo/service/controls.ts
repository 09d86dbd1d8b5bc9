// Demo-only controls for the QA page and tests: not part of the /v1 interface.
import { Hono } from 'hono'
import * as z from 'zod/mini'
import type { Clock } from './clock.ts'
import type { AppEnv } from './http.ts'
import { jsonBody } from './http.ts'
import { parseOrThrow } from './validate.ts'

interface Controlled {
  clock: Clock
  rollKey(key: string): string
  reset(): void
}

const Advance = z.strictObject({ ms: z.number().check(z.gte(0), z.lte(400 * 24 * 3600 * 1000)) })
const Roll = z.strictObject({
  key: z.string().check(z.regex(/^pk_(test|live)_[A-Za-z0-9]{4,64}$/)),
})

export function controlRoutes(service: Controlled) {
  const routes = new Hono<AppEnv>()
  routes.get('/clock', (c) => c.json({ now: new Date(service.clock.now()).toISOString() }))
  routes.post('/clock/advance', async (c) => {
    const { ms } = parseOrThrow(Advance, await jsonBody(c))
    service.clock.advance(ms)
    return c.json({ now: new Date(service.clock.now()).toISOString() })
  })
  // Public keys only: the browser never sees a secret key.
  routes.post('/keys/roll', async (c) => {
    const { key } = parseOrThrow(Roll, await jsonBody(c))
    return c.json({ key: service.rollKey(key) })
  })
  routes.post('/reset', (c) => {
    service.reset()
    return c.json({ ok: true })
  })
  return routes
}

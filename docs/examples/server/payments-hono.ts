import { Hono } from 'hono'
import { webhooks } from './payment-webhooks.js'

export const app = new Hono()

// c.req.raw is the Fetch Request as it came, its body unread: hand it over as it is. (Nothing
// before these routes may read the body: the signature is over its bytes.)
app.post('/webhooks/stripe', (c) => webhooks.stripe(c.req.raw))
app.post('/webhooks/paddle', (c) => webhooks.paddle(c.req.raw))
app.post('/webhooks/lemon-squeezy', (c) => webhooks.lemonSqueezy(c.req.raw))

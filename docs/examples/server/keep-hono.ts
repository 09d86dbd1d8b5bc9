import { Hono } from 'hono'
import { keepAttribution } from 'referral-widget/server'

export const app = new Hono()

// Before your routes: every response keeps the referral in the server's own cookie.
app.use(async (c, next) => {
  await next()
  const cookie = keepAttribution(c.req.header('cookie'), {
    secure: new URL(c.req.url).protocol === 'https:',
  })
  if (cookie !== null) c.header('Set-Cookie', cookie, { append: true })
})

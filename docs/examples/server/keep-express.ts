import express from 'express'
import { keepAttribution } from 'referral-widget/server'

export const app = express()

// Before your routes: every response keeps the referral in the server's own cookie.
app.use((request, response, next) => {
  const cookie = keepAttribution(request.headers.cookie, { secure: request.secure })
  if (cookie !== null) response.append('Set-Cookie', cookie)
  next()
})

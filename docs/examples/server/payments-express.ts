import express, { type RequestHandler } from 'express'
import type { WebhookHandler } from 'referral-widget/server'
import { webhooks } from './payment-webhooks.js'

/** A Fetch handler as Express route handlers: the raw body in a Request, the Response back. */
function fromFetch(handler: WebhookHandler): RequestHandler[] {
  return [
    express.raw({ type: '*/*' }), // the body as a Buffer of the bytes sent, the signature's input
    async (request, response) => {
      const headers = new Headers()
      for (const [name, values] of Object.entries(request.headersDistinct)) {
        for (const value of values ?? []) headers.append(name, value)
      }
      const url = `${request.protocol}://${request.get('host')}${request.originalUrl}`
      const body = Buffer.isBuffer(request.body) ? new Uint8Array(request.body) : null
      const answer = await handler(new Request(url, { method: 'POST', headers, body }))
      response.status(answer.status)
      answer.headers.forEach((value, name) => {
        response.set(name, value)
      })
      response.send(await answer.text())
    },
  ]
}

export const app = express()

// Before any app.use(express.json()): a body parsed as JSON can no longer be checked.
app.post('/webhooks/stripe', fromFetch(webhooks.stripe))
app.post('/webhooks/paddle', fromFetch(webhooks.paddle))
app.post('/webhooks/lemon-squeezy', fromFetch(webhooks.lemonSqueezy))

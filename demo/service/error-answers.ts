// The answers no route gives: 405 for a known path with another method, 404 for an unknown
// route, and the contract's error body for a ServiceError; anything else is a 500 that names no
// detail (the log gets the error's name, never a key or a stack trace).
import type { Hono } from 'hono'
import { ServiceError } from './errors.ts'
import type { AppEnv } from './http.ts'

/** The paths of /v1 and the methods each answers, for 405 answers. */
const ROUTES: ReadonlyArray<readonly [string, string]> = [
  ['/v1/campaigns', 'GET, POST'],
  ['/v1/campaigns/:id', 'GET, PATCH'],
  ['/v1/links', 'POST'],
  ['/v1/links/:code', 'GET'],
  ['/v1/links/:code/summary', 'GET'],
  ['/v1/events', 'POST'],
]

const truncate = (text: string, max = 100) => (text.length > max ? `${text.slice(0, max)}…` : text)

/** After the routes: a wrong method on a known path. */
export function answerWrongMethods(app: Hono<AppEnv>) {
  for (const [path, allow] of ROUTES) {
    app.all(path, (c) => {
      throw new ServiceError(
        405,
        'invalid_request_error',
        'method_not_allowed',
        `${c.req.method} is not allowed on ${path}; use ${allow}.`,
        undefined,
        { Allow: allow },
      )
    })
  }
}

export const routeMissing = (method: string, path: string) =>
  new ServiceError(404, 'not_found_error', 'route_missing', `No route ${method} ${truncate(path)}.`)

/** A missing route names the path as the client sent it, `basePath` included. */
export function answerErrors(app: Hono<AppEnv>, basePath: string, log: (line: string) => void) {
  app.notFound((c) => {
    throw routeMissing(c.req.method, basePath + c.req.path)
  })

  app.onError((error, c) => {
    if (error instanceof ServiceError) {
      for (const [name, value] of Object.entries(error.headers)) c.header(name, value)
      return c.json(error.toBody(), error.status)
    }
    log(`[service] internal error on ${c.req.method} ${truncate(c.req.path)}: ${error.name}`)
    return c.json(
      {
        error: {
          type: 'api_error',
          code: 'internal_error',
          message: 'Something went wrong on our side.',
        },
      },
      500,
    )
  })
}

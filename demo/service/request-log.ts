// The last requests the service answered, for the demo page's live view. Keys are never
// recorded: only their kind and mode.
import type { MiddlewareHandler } from 'hono'
import { type AppEnv, isPlainObject } from './http.ts'

export interface LoggedRequest {
  seq: number
  at: string
  method: string
  path: string
  status: number
  key: string
  /** Event ids and their results, for /v1/events. */
  summary: string
}

const LIMIT = 200

export function createRequestLog() {
  let seq = 0
  const entries: LoggedRequest[] = []
  return {
    add(entry: Omit<LoggedRequest, 'seq'>) {
      seq += 1
      entries.push({ seq, ...entry })
      if (entries.length > LIMIT) entries.splice(0, entries.length - LIMIT)
    },
    since: (after: number) => entries.filter((entry) => entry.seq > after),
    clear() {
      entries.length = 0
    },
  }
}

export type RequestLog = ReturnType<typeof createRequestLog>

/**
 * Records each /v1 answer (with the results of a /v1/events answer). The demo's own admin calls
 * (in-process, with the secret key) are not the widget's traffic: left out.
 */
export function logRequests(log: RequestLog, now: () => number): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next()
    if (c.env?.demoAdmin === true) return
    const key = c.var.apiKey
    let summary = ''
    if (c.req.path === '/v1/events' && c.res.headers.get('content-type')?.includes('json')) {
      const body: unknown = await c.res
        .clone()
        .json()
        .catch(() => null)
      if (isPlainObject(body) && Array.isArray(body.results)) {
        summary = body.results
          .map((result: unknown) =>
            isPlainObject(result) ? `${String(result.id)} ${String(result.status)}` : '?',
          )
          .join(', ')
      }
    }
    log.add({
      at: new Date(now()).toISOString(),
      method: c.req.method,
      path: c.req.path + (new URL(c.req.url).search || ''),
      status: c.res.status,
      key: key ? `${key.kind}_${key.mode}` : 'none',
      summary,
    })
  }
}

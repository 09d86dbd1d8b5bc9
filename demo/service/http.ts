import type { Context } from 'hono'
import { invalid, ServiceError, secretKeyRequired } from './errors.ts'
import type { ApiKey } from './keys.ts'

export const MAX_BODY_BYTES = 64 * 1024

export interface AppEnv {
  Bindings: {
    incoming?: { socket?: { remoteAddress?: string | undefined } }
    /** Set only by the demo's admin routes, which call the app in-process with the secret key. */
    demoAdmin?: boolean
  }
  Variables: { apiKey: ApiKey; body: unknown }
}

export type AppContext = Context<AppEnv>

export function requireSecretKey(c: AppContext, action: string) {
  if (c.get('apiKey').kind !== 'sk') {
    throw secretKeyRequired(`${action} needs a secret key (sk_...). Public keys cannot do this.`)
  }
}

const mediaType = (c: AppContext) =>
  (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? ''

export const isBeacon = (c: AppContext) =>
  c.req.method === 'POST' && mediaType(c) === 'text/plain' && !c.req.header('authorization')

/** Parses a request body as JSON, once; 415 for another media type, 400 for broken JSON. */
export async function jsonBody(c: AppContext): Promise<unknown> {
  if (c.var.body !== undefined) return c.var.body
  const type = mediaType(c)
  if (type !== 'application/json' && !(type === 'text/plain' && isBeacon(c))) {
    throw new ServiceError(
      415,
      'invalid_request_error',
      'unsupported_media_type',
      `Send the body as JSON with "Content-Type: application/json"${type ? `, not ${type}` : ''}.`,
    )
  }
  const text = await readLimited(c.req.raw)
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    throw invalid('invalid_json', 'The body is not valid JSON.')
  }
  c.set('body', body)
  return body
}

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

export function requireObject(body: unknown): Record<string, unknown> {
  if (!isPlainObject(body)) throw invalid('parameter_invalid', 'The body must be a JSON object.')
  return body
}

export const bodyTooLarge = () =>
  new ServiceError(
    413,
    'invalid_request_error',
    'body_too_large',
    `The body is larger than ${MAX_BODY_BYTES / 1024} KiB.`,
  )

/** The body as text, refused with 413 as soon as it grows past the limit. */
async function readLimited(request: Request): Promise<string> {
  if (!request.body) return ''
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => {})
      throw bodyTooLarge()
    }
    chunks.push(value)
  }
  const bytes = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.byteLength
  }
  return new TextDecoder().decode(bytes)
}

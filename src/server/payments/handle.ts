// The request handler every provider shares: the raw body, the provider's signature check, the
// event read, credited (credit.ts), and the answer. A provider delivers again whatever is not a
// 2xx, so the answer says exactly one of: done with it (200, whatever became of it), never
// acceptable (400: the signature or the body), or not yet (503: the referral service did not take
// it). It never throws and never answers 500.

import {
  RecordPurchaseError,
  RecordRefundError,
  RecordSignupError,
  ServerConfigError,
} from '../errors.ts'
import { checkServiceOptions } from '../options.ts'
import { credit, type Outcome } from './credit.ts'
import type { PaymentProvider, Refusal, WebhookOptions } from './type.ts'

/** A webhook endpoint: a Fetch request in, the answer for the provider out. Never rejects. */
export type WebhookHandler = (request: Request) => Promise<Response>

type Answer =
  | Outcome
  | Refusal
  | { error: 'service_unavailable' | 'internal_error' | 'method_not_allowed' }

const STATUS = {
  signature_invalid: 400,
  body_invalid: 400,
  method_not_allowed: 405,
  service_unavailable: 503,
  internal_error: 503,
} as const

function respond(answer: Answer): Response {
  const status = 'error' in answer ? STATUS[answer.error] : 200
  const headers: Record<string, string> = { 'Content-Type': 'application/json' }
  if (status === 405) headers.Allow = 'POST'
  return new Response(JSON.stringify(answer), { status, headers })
}

const SERVICE_ERRORS = [RecordSignupError, RecordPurchaseError, RecordRefundError]

/** The answer for an error thrown while crediting; `report` hears the ones that need a person. */
function answerFor(error: unknown, report: (error: unknown) => void): Answer {
  // A service without refunds never takes one: a retry would only get the endpoint disabled by
  // the provider after days of failures, and every purchase with it. Said, not retried.
  if (error instanceof RecordRefundError && error.reason === 'unsupported') {
    return { outcome: 'ignored', reason: 'refund_unsupported' }
  }
  report(error)
  // A value of the event the service would refuse (an id with characters it does not take).
  if (error instanceof ServerConfigError) return { error: 'body_invalid' }
  if (SERVICE_ERRORS.some((type) => error instanceof type)) return { error: 'service_unavailable' }
  return { error: 'internal_error' }
}

/** A provider's secret: a non-empty string, as copied (no space or line break around it). */
export function checkSecret(name: string, option: string, secret: unknown) {
  if (typeof secret === 'string' && secret !== '' && secret.trim() === secret) return
  const slip =
    typeof secret === 'string' && secret !== ''
      ? ' It has spaces or a line break around it.'
      : ' It is empty: is the environment variable that holds it set?'
  throw new ServerConfigError(
    option,
    `[referral] ${name} needs ${option}, the signing secret of the provider's webhook endpoint.${slip}`,
  )
}

/** The errors' own messages start with "[referral] "; the prefix is said once. */
const defaultReport = (name: string) => (error: unknown) => {
  const message = error instanceof Error ? error.message : String(error)
  console.error(`[referral] ${name}: ${message.replace(/^\[referral\] /, '')}`)
}

const decoder = new TextDecoder()
const strict = new TextDecoder('utf-8', { fatal: true })

/** The body as text; null when it is not UTF-8. */
function utf8(bytes: Uint8Array): string | null {
  try {
    return strict.decode(bytes)
  } catch {
    return null
  }
}

/**
 * The handler of `name`: checks the options now (ServerConfigError for a wrong one, before any
 * delivery), the service's first, then the provider's (`makeProvider`), and answers each
 * delivery as the file's header says.
 */
export function createWebhookHandler(
  name: string,
  options: WebhookOptions,
  defaultTimeoutMs: number,
  makeProvider: () => PaymentProvider,
): WebhookHandler {
  checkServiceOptions(name, options, 'Payment webhooks are answered by your server.')
  const checked = { ...options, timeoutMs: options.timeoutMs ?? defaultTimeoutMs }
  const provider = makeProvider()
  const report = (error: unknown) => {
    try {
      ;(options.onError ?? defaultReport(name))(error)
    } catch {} // the site's reporter failing changes no answer
  }
  const now = options.now ?? Date.now

  async function handle(request: Request): Promise<Answer> {
    if (request.method !== 'POST') return { error: 'method_not_allowed' }
    const deadline = now() + checked.timeoutMs
    const signature = request.headers.get(provider.signatureHeader)
    if (!signature) return { error: 'signature_invalid' }
    let bytes: Uint8Array<ArrayBuffer>
    try {
      bytes = new Uint8Array(await request.arrayBuffer())
    } catch {
      return { error: 'body_invalid' } // already read by a framework, or cut off
    }
    // The signature is checked before the body is judged: a forged body is signature_invalid
    // whatever it holds. One that is signed but not UTF-8 text is then body_invalid.
    const text = utf8(bytes)
    const verified = await provider.verify(
      { text: text ?? decoder.decode(bytes), bytes },
      signature,
    )
    if ('error' in verified) return verified
    if (text === null) return { error: 'body_invalid' }
    const event = provider.read(verified.body)
    if (event === null) return { error: 'body_invalid' }
    try {
      return await credit(provider, event, checked, deadline)
    } catch (error) {
      return answerFor(error, report)
    }
  }

  return async (request) => {
    try {
      return respond(await handle(request))
    } catch (error) {
      // Nothing above should throw; if something does, the provider delivers again later.
      report(error)
      return respond({ error: 'internal_error' })
    }
  }
}

// How a record function tells a service without one of its extensions (purchases, refunds) from
// one that refuses a value: the first answers `unsupported`, once, instead of a result that
// would make the site believe the event was counted, or a retry that can never succeed.

import { type PostFailure, postEvent, type Verdict } from './post-event.ts'

/** Codes a service gives an event it cannot read: every field was checked here before sending. */
const UNREADABLE = new Set(['parameter_invalid', 'parameter_missing', 'parameter_unknown'])

/**
 * Whether an event's rejection says the service does not know the event type (a field unknown,
 * the type refused, or no field named), rather than refusing one of its values (a currency it
 * does not list, say): that one is the result, `rejected`.
 */
export const notKnown = ({ code, param }: { code: string; param?: string | undefined }) =>
  UNREADABLE.has(code) && (param === undefined || code === 'parameter_unknown' || param === 'type')

/** A 400 for the whole request, about its fields: a service that cannot read the event. */
export const unreadableRequest = (failure: PostFailure) =>
  failure.status === 400 && UNREADABLE.has(failure.code ?? '')

/** `events`: what the service does not take ("purchases"); `detail`: how it said so. */
export const unsupportedMessage = (events: string, detail: string) =>
  `[referral] the service does not take ${events} (${detail}): it implements the published interface without the ${events} extension. Nothing was recorded.`

/** The rejection that says so, when the verdict is one. */
export const unknownBy = (verdict: Verdict) =>
  verdict.status === 'rejected' && notKnown(verdict.error) ? verdict.error : undefined

/** What an extension's failure carries before its error adds the event's own ids. */
export type ExtensionFailure = Omit<PostFailure, 'reason'> & {
  reason: PostFailure['reason'] | 'unsupported'
}

/**
 * Posts one event of an extension (`events`: "purchases", "refunds") as postEvent does, and says
 * `unsupported` through `error` where the service cannot read it: a 400 for the request's fields,
 * or the event rejected as of a type it does not know.
 */
export async function postExtensionEvent(
  events: string,
  post: Omit<Parameters<typeof postEvent>[0], 'fail'>,
  error: (failure: ExtensionFailure) => Error,
): Promise<Verdict> {
  const fail = (failure: PostFailure) => {
    const detail = `it refused the request: ${failure.status} ${failure.code}`
    return error({
      ...failure,
      ...(unreadableRequest(failure)
        ? { reason: 'unsupported' as const, message: unsupportedMessage(events, detail) }
        : {}),
    })
  }
  const { verdict, attempts } = await postEvent({ ...post, fail })
  const unknown = unknownBy(verdict)
  if (unknown) {
    const detail = `it rejected the ${post.request} event: ${unknown.code}: ${unknown.message}`
    const message = unsupportedMessage(events, detail)
    throw error({ reason: 'unsupported', message, status: 200, code: unknown.code, attempts })
  }
  return verdict
}

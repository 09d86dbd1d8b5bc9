// Records a signup from the site's backend, where ad blockers and closed tabs cannot lose it.
// One event per user: its id is derived from the user id, so the service counts a user once
// however often this is called.

import { RecordSignupError } from './errors.ts'
import { signupEventId, userVisitorId } from './ids.ts'
import { checkRecordOptions, quote, type RecordOptions } from './options.ts'
import { postEvent } from './post-event.ts'

export { DEFAULT_TIMEOUT_MS, type FetchLike } from './options.ts'

export interface RecordSignupOptions extends RecordOptions {
  /** The new user's id in your system (1-128 of `A-Z a-z 0-9 _ . : @ -`). */
  userId: string
}

export type SignupResult =
  | { status: 'accepted' | 'duplicate'; eventId: string }
  | {
      status: 'rejected'
      eventId: string
      /** `param` (service extension): the event's field at fault, when the service names one. */
      error: { code: string; message: string; param?: string | undefined }
    }

/**
 * Posts one signup event for `userId` with a secret key and resolves to the service's verdict
 * on it. Network errors, 5xx answers and 429s are retried (backoff with full jitter; 429 waits
 * its Retry-After) until `timeoutMs` has passed. Rejects with RecordSignupError only when no
 * verdict came in time (`timeout`) or the whole request was refused (`refused`, e.g. a 401);
 * throws ServerConfigError before any request for a bad option or inside a browser page.
 */
export async function recordSignup(options: RecordSignupOptions): Promise<SignupResult> {
  const { secretKey, userId, attribution, url, fetchImpl } = checkRecordOptions(
    'recordSignup',
    options,
    'In the page, use track("signup").',
  )
  const now = options.now ?? Date.now
  const eventId = await signupEventId(userId)
  const event = {
    id: eventId,
    type: 'signup',
    ...(attribution ? { code: attribution.code } : {}),
    visitorId: attribution?.visitorId ?? (await userVisitorId(userId)),
    userId,
    occurredAt: new Date(now()).toISOString(),
  }
  const { verdict } = await postEvent({
    event,
    url,
    secretKey,
    fetchImpl,
    options,
    what: `the signup of ${quote(userId)}`,
    request: 'signup',
    fail: (failure) => new RecordSignupError({ ...failure, eventId }),
  })
  return { ...verdict, eventId }
}

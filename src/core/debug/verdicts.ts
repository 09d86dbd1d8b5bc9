// What the tracking core announced (emitter.ts keeps the last 50), as decisions: an event's
// verdict (the service's status or error code, passed through), a sign-up with no referral, a
// request that failed (rate-limited, the service failing, or no answer at all: the page's CSP, a
// blocker in the browser, or the network), the referrer's own link, consent refused.
import type { ApiError } from '../../shared/errors.ts'
import type { Emitted } from '../emitter.ts'
import type { CoreEvents } from '../types.ts'

/** A decision: its code, when (device ms), and the facts it was made on. */
export interface Decision {
  code: string
  at: number
  [fact: string]: unknown
}

/** The announcements that say something a site owner may need to know. */
export const TOLD = [
  'event:queued',
  'event:sent',
  'event:dropped',
  'unsent',
  'selfreferral',
  'consent',
] as const satisfies ReadonlyArray<keyof CoreEvents>

/** The road to the service as it was when a request got no answer. */
export interface Road {
  /** The service's origin. */
  service: string
  online: boolean
  /** The directive of the page's CSP that refused the service, if it did. */
  refusedBy: string | undefined
}

export function verdictsOf([name, payload, at]: Emitted<CoreEvents>, road: Road): Decision[] {
  const decision = (code: string, facts: object = {}): Decision => ({ ...facts, code, at })
  switch (name) {
    case 'event:queued': {
      const { event } = payload as CoreEvents['event:queued']
      return [
        ...(event.type === 'signup' && event.code === undefined
          ? [decision('signup_without_referral', { userId: event.userId })]
          : []),
        ...(road.online ? [] : [decision('offline', { type: event.type })]),
      ]
    }
    case 'event:sent': {
      const { event, status } = payload as CoreEvents['event:sent']
      return [decision(status, { type: event.type, id: event.id })]
    }
    case 'event:dropped': {
      const { event, reason, error } = payload as CoreEvents['event:dropped']
      const code = error?.code ?? `event_${reason}`
      return [decision(code, { type: event.type, id: event.id, why: error?.message })]
    }
    case 'selfreferral':
      return [decision('self_referral', { referral: (payload as { code: string }).code })]
    case 'consent':
      return payload === false ? [decision('consent_refused')] : []
    case 'unsent':
      return [unsent(payload as CoreEvents['unsent'], road, decision)].filter((d) => d !== null)
    default:
      return []
  }
}

function unsent(
  { error, retryAt }: { error: ApiError; retryAt: number },
  road: Road,
  decision: (code: string, facts: object) => Decision,
): Decision | null {
  const facts = { status: error.status, why: error.message, retryAt }
  if (error.status === 429) return decision('rate_limited', facts)
  if (error.status > 0 || error.code === 'timeout')
    return decision(error.retryable ? 'service_error' : error.code, facts)
  // No answer at all: the page's CSP said so itself (blocked_by_csp), or the road is closed.
  if (road.refusedBy !== undefined) return null
  return decision(road.online ? 'blocked_by_client' : 'offline', {
    ...facts,
    service: road.service,
  })
}

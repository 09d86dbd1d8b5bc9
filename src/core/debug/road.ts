// The road to the service, as the debug file sees it: the page's Content Security Policy refusing
// the service or one of the widget's files (each refusal a decision), and a probe: the campaign
// asked for, timed, which tells a page that cannot reach the service why (CSP, a blocker, or no
// network). Listening starts when the debug file comes; a refusal before then is found by the
// probe. A request with no answer is judged once the CSP has said so, or CSP_GRACE_MS on.
import { referrerCalls } from '../../api/referrer-calls.ts'
import type { PublicCampaign } from '../../api/wire.ts'
import { messageOf } from '../../shared/errors.ts'
import type { DebugCore } from '../tracker-options.ts'
import type { Decision } from './verdicts.ts'

export interface Probe {
  campaign: PublicCampaign | null
  reachable: boolean
  status: number | null
  problem: string | null
  ms: number
}

/**
 * How long a request with no answer waits for the page's CSP to say it refused it: the report is a
 * task of its own, queued apart from the failure, and on a busy page it comes later than the next.
 */
export const CSP_GRACE_MS = 1_000

export function followRoad(core: DebugCore, refused: (decision: Decision) => void) {
  const service = new URL(core.options.apiBase).origin
  let refusedBy: string | undefined
  const waiting = new Set<() => void>()
  const stop = core.host.listen('securitypolicyviolation', (event) => {
    const { blockedURI: url, effectiveDirective: directive } = event as SecurityPolicyViolationEvent
    if (url.startsWith(service)) refusedBy = directive
    else if (!url.includes('/referral-widget')) return
    refused({ code: 'blocked_by_csp', at: core.now(), directive, url })
    for (const resolve of waiting) resolve()
  })

  /** Settles once the page's CSP has refused the service, or CSP_GRACE_MS on. */
  const refusalOrGrace = () =>
    new Promise<void>((resolve) => {
      if (refusedBy !== undefined) return resolve()
      const done = () => {
        waiting.delete(done)
        resolve()
      }
      waiting.add(done)
      core.timers.setTimeout(done, CSP_GRACE_MS)
    })

  /** The campaign asked for: what the service answered, and how long it took. */
  async function probe(): Promise<Probe> {
    const started = core.now()
    try {
      const campaign = await referrerCalls(core.api).campaign(core.options.campaignId)
      return { campaign, reachable: true, status: 200, problem: null, ms: core.now() - started }
    } catch (failure) {
      const status = (failure as { status?: unknown }).status
      const answered = typeof status === 'number' && status > 0
      if (!answered) await refusalOrGrace()
      return {
        campaign: null,
        reachable: answered,
        status: answered ? status : null,
        problem: refusedBy ? `refused by the page's CSP (${refusedBy})` : messageOf(failure),
        ms: core.now() - started,
      }
    }
  }

  return { service, stop, probe, refusalOrGrace, refusedBy: () => refusedBy }
}

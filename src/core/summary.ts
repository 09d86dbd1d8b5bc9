// The referrer's own results under their link (issue 15, beyond the seed's interface): asked for
// with their user token when the link is there, when the panel opens and after flush(). A
// service without the route (404), no token, a refused token or a failed request: nothing is
// shown, never an error state.

import { parseLinkSummary } from '../api/summary.ts'
import type { LinkSummary } from '../api/wire.ts'
import { ApiError } from '../shared/errors.ts'
import { toJson } from '../shared/json.ts'
import { warnOnce } from '../shared/log.ts'
import type { ReferralStores } from './stores.ts'
import type { Core } from './tracker.ts'
import type { UserToken } from './user-token.ts'

/* @__NO_SIDE_EFFECTS__ */
export function createSummary(options: {
  core: Core
  stores: ReferralStores
  userToken: UserToken
}) {
  const { core, stores, userToken } = options
  // Answers come back in any order: only the latest request's is shown.
  let latest = 0

  async function refresh() {
    const link = stores.$link.get()
    const token = userToken.get()
    const asked = ++latest
    if (link.status !== 'ready' || token === undefined || !core.consented()) {
      stores.$summary.set(null)
      return
    }
    const { code } = link.link
    let summary: LinkSummary | null = null
    try {
      summary = await userToken.send((current) =>
        current === undefined
          ? Promise.resolve(null)
          : core.api.request(
              'GET',
              `/v1/links/${encodeURIComponent(code)}/summary`,
              parseLinkSummary,
              undefined,
              { 'Referral-User-Token': current },
            ),
      )
    } catch (error) {
      if (asked !== latest || core.isDestroyed()) return
      if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
        warnOnce(
          `The referrer's results are not shown: the service refused the user token (${error.code}).`,
        )
      } else if (!(error instanceof ApiError && error.status === 404)) {
        return // a failed request keeps what is shown; the next refresh tries again
      }
    }
    if (asked !== latest || core.isDestroyed()) return
    if (summary?.code !== code) summary = null
    if (toJson(summary) !== toJson(stores.$summary.get())) stores.$summary.set(summary)
  }

  return { refresh }
}

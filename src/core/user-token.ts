// The signed-in referrer's user token (issue 15): held in memory only, never stored, put in a URL
// or logged. A request the service refuses as `user_token_expired` asks the host for a fresh
// token once (`onTokenExpired`), however many requests saw that expiry, and is retried once.
import { ApiError, errorOf } from '../shared/errors.ts'
import { USER_TOKEN_EXPECTED } from './option-errors.ts'
import { checked } from './options.ts'

export interface UserTokenOptions {
  userToken?: string | undefined
  onTokenExpired?: (() => Promise<string>) | undefined
}

/* @__NO_SIDE_EFFECTS__ */
export function createUserToken(options: UserTokenOptions) {
  let token = options.userToken
  // The renewal under way, and the expired token it replaces.
  let renewal: { expired: string; fresh: Promise<void> } | undefined

  async function renew(expired: string) {
    let fresh: unknown
    try {
      fresh = await options.onTokenExpired?.()
    } catch (cause) {
      throw new Error(`onTokenExpired() failed: ${errorOf(cause).message}`)
    }
    // Refused without quoting: the value may still be a credential.
    const renewed = checked('userToken', fresh, USER_TOKEN_EXPECTED, 'onTokenExpired() result')
    if (token === expired) token = renewed
  }

  return {
    get: () => token,
    set(next: string | undefined) {
      token = next
    },
    /**
     * `send` with the current token; if the service says it expired, once more with a fresh
     * one from `onTokenExpired` (one call per expired token, shared by every request).
     */
    async send<T>(request: (token: string | undefined) => Promise<T>): Promise<T> {
      const used = token
      try {
        return await request(used)
      } catch (error) {
        const expired =
          error instanceof ApiError && error.code === 'user_token_expired' && used !== undefined
        if (!expired || !options.onTokenExpired) throw error
        if (token === used) {
          if (renewal?.expired !== used) renewal = { expired: used, fresh: renew(used) }
          await renewal.fresh
        }
        return request(token)
      }
    },
  }
}

export type UserToken = ReturnType<typeof createUserToken>

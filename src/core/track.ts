// `track(type, properties)`: the page's own call, checked. A click captures its code as an
// arrival through a link would; a sign-up is queued with the code held (or the one given). Never
// throws into the page: a bad call is logged and announced as an error, and answers false.
import { CODE_PATTERN, type TrackedEvent } from '../api/wire.ts'
import { ConfigError, errorOf } from '../shared/errors.ts'
import { error as logError } from '../shared/log.ts'
import { own } from '../shared/own.ts'
import { USER_ID_EXPECTED } from './option-errors.ts'
import { checked } from './options.ts'
import type { TrackProperties } from './types.ts'

export function createTrack(parts: {
  capture: (code: string) => boolean
  /** The referral code held for this visitor, if any. */
  heldCode: () => string | undefined
  enqueue: (event: Omit<TrackedEvent, 'id' | 'visitorId' | 'occurredAt'>) => boolean
  isDestroyed: () => boolean
  fail: (error: Error) => void
}) {
  return function track(type: 'signup' | 'click', given?: TrackProperties): boolean {
    try {
      if (parts.isDestroyed()) throw new ConfigError('track', 'This widget was destroyed.')
      // The page's own fields only: a `code` on its Object.prototype is not this signup's.
      const properties = own(given ?? {})
      if (type === 'click') {
        if (typeof properties.code !== 'string' || !CODE_PATTERN.test(properties.code)) {
          throw new ConfigError(
            'code',
            `track('click') needs a referral code of 8-12 letters or digits.`,
          )
        }
        return parts.capture(properties.code)
      }
      if (type === 'signup') {
        const user = checked('userId', properties.userId, USER_ID_EXPECTED)
        const code = properties.code ?? parts.heldCode()
        if (code !== undefined && !CODE_PATTERN.test(code)) {
          throw new ConfigError('code', 'code must be 8-12 letters or digits.')
        }
        return parts.enqueue({
          type: 'signup',
          userId: user,
          ...(code === undefined ? {} : { code }),
        })
      }
      throw new ConfigError(
        'type',
        `track() takes 'signup' or 'click', not ${JSON.stringify(type)}.`,
      )
    } catch (thrown) {
      const failure = errorOf(thrown)
      logError(failure.message)
      parts.fail(failure)
      return false
    }
  }
}

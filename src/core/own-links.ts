// The codes of the links this browser showed the users identified in it (the referrer's panel or
// getLink()), each for its campaign's window from when it was last shown: an arrival here through
// one of them is the referrer's own, and counts nothing (no click, no referral held, no banner).
// One key, plain text, `<code>.<until, base 36>` entries separated by spaces, the newest last:
// the tracking part reads it on every referred page, so reading it is a split, not a parser.
// forget() clears it with the rest of the namespace; broken text is ignored, never trusted.
import { CODE_PATTERN } from '../api/wire.ts'
import type { SafeStorage } from '../queue/storage.ts'

const KEY = 'own'
/** A browser shows a handful of links; the oldest go first past this. */
const MAX = 20

/** The entries stored, as `[code, until]`; none where storage holds no text. */
const entries = (storage: SafeStorage, namespace: string) => {
  const text = storage.get(namespace + KEY)
  return (typeof text === 'string' ? text.split(' ') : []).map((entry) => entry.split('.'))
}

/** Whether `code` is a link this browser showed its own referrer, within its window. */
export const isOwnLink = (storage: SafeStorage, namespace: string, code: string, now: number) =>
  entries(storage, namespace).some(
    ([own, until = '']) => own === code && Number.parseInt(until, 36) > now,
  )

/** Remembers `code` as shown here to the referrer it belongs to, until `until`. */
export function rememberOwnLink(
  storage: SafeStorage,
  namespace: string,
  code: string,
  until: number,
  now: number,
) {
  const kept = entries(storage, namespace).filter(
    ([own = '', until = '']) =>
      own !== code && CODE_PATTERN.test(own) && Number.parseInt(until, 36) > now,
  )
  const text = [
    ...kept.map((entry) => entry.join('.')),
    `${code}.${Math.floor(until).toString(36)}`,
  ]
  storage.set(namespace + KEY, text.slice(-MAX).join(' '))
}

// What the loader keeps before the tracking part runs, so nothing the visitor did is lost to a
// page closed a moment later: an arrival through a referral link (the page's address, written
// the moment the loader sees a referral there) and each `track` call made before the part was
// there (a sign-up page that moves on at once). The tracking part takes what is kept (once) and
// records each as if it had run then. One key per record (`kept:<page>:<n>`), as plain text
// (`1 <time> arrive <address>`, `1 <time> signup <user id> <code or ->`, `1 <time> click <code>`):
// nothing here is written through the page's JSON, which a hostile page may have replaced, and
// everything is checked when read, as all stored data is.
import type { SafeStorage } from '../queue/storage.ts'
import type { TrackProperties } from './types.ts'

/** A record the loader kept: an arrival (its address), or a track call (its properties). */
export type Kept = { at: number; page: number } & (
  | { type: 'arrive'; href: string }
  | { type: 'signup' | 'click'; properties: TrackProperties }
)

const PREFIX = 'kept:'
/** A page never keeps more: the next one loads the tracking part, which takes them. */
export const MAX_KEPT = 20

/** The n-th record a page keeps, under the namespace. */
export const keptKey = (namespace: string, page: number, n: number) =>
  `${namespace}${PREFIX}${page}:${n}`

/** Whether a storage key is a record the loader keeps in this namespace. */
export const isKept = (namespace: string, key: string) => key.startsWith(namespace + PREFIX)

/**
 * A record's text, or undefined for one the loader cannot keep as it is (a value that is not a
 * plain word): it waits for the tracking part in memory, which checks it and says what is wrong.
 */
export function keptText(type: unknown, values: unknown[]): string | undefined {
  const words = values.map((value) =>
    value === undefined
      ? '-'
      : typeof value === 'string' && /^[^\s-]\S{0,4095}$/.test(value)
        ? value
        : '',
  )
  if ((type === 'arrive' || type === 'signup' || type === 'click') && !words.includes(''))
    return `1 ${Date.now()} ${type} ${words.join(' ')}`
}

/**
 * Every record kept in the namespace, in the order it was kept, each removed as it is taken: the
 * tracking part records them once. Broken ones are removed too, never trusted.
 */
export function takeKept(storage: SafeStorage, namespace: string): Kept[] {
  const kept: Array<Kept & { n: number }> = []
  for (const key of storage.keys(namespace + PREFIX)) {
    const text = storage.get(key)
    if (text === undefined) continue // unreadable just now: left for a later page
    storage.remove(key)
    const [page = NaN, n = NaN] = key
      .slice(namespace.length + PREFIX.length)
      .split(':')
      .map(Number)
    const record = /^1 (\d{1,15}) (arrive|signup|click) (\S{1,4096})(?: (\S{1,4096}))?$/.exec(
      text ?? '',
    )
    if (!record?.[3] || !Number.isFinite(page + n)) continue
    const at = Number(record[1])
    const word = (value: string | undefined) => (value === '-' ? undefined : value)
    if (record[2] === 'arrive') {
      if (/^https?:\/\//.test(record[3]))
        kept.push({ type: 'arrive', href: record[3], at, page, n })
      continue
    }
    const [userId, code] =
      record[2] === 'signup' ? [word(record[3]), word(record[4])] : [undefined, record[3]]
    kept.push({
      type: record[2] as 'signup' | 'click',
      properties: { ...(userId ? { userId } : {}), ...(code ? { code } : {}) },
      at,
      page,
      n,
    })
  }
  return kept.sort((a, b) => a.page - b.page || a.n - b.n)
}

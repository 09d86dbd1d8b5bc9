// What the loader keeps before the tracking part runs, so nothing the visitor did is lost to a
// page closed a moment later: an arrival through a referral link (the page's address, written
// the moment the loader sees a referral there) and each `track` call made before the part was
// there (a sign-up page that moves on at once). The tracking part takes what is kept (once) and
// records each as if it had run then. One key per record (`kept:<page>:<n>`), as plain text
// (`1 <time> <nonce> arrive <address>`, `1 <time> <nonce> signup <user id> <code or ->`,
// `1 <time> <nonce> click <code>`): nothing here is written through the page's JSON, which a
// hostile page may have replaced, and everything is checked when read, as all stored data is.
// The event a record makes has an id of its own (its key's page and number, and the nonce), the
// same in whichever tab takes it: two tabs starting at once may both take a record before either
// removes it, and the service counts that event once.
import { DEFAULT_MAX_EVENTS } from '../queue/queue.ts'
import type { SafeStorage } from '../queue/storage.ts'
import type { TrackProperties } from './types.ts'

/** A record the loader kept: an arrival (its address), or a track call (its properties). */
export type Kept = { at: number; page: number; id: string } & (
  | { type: 'arrive'; href: string }
  | { type: 'signup' | 'click'; properties: TrackProperties }
)

const PREFIX = 'kept:'
/**
 * No more wait at once, the queue's own bound (a page past it keeps its calls in memory until the
 * tracking part runs, and says so): a page that cannot load the part (offline) never fills the
 * host's storage with them.
 */
export const MAX_KEPT = DEFAULT_MAX_EVENTS

/** The n-th record a page keeps, under the namespace. */
export const keptKey = (namespace: string, page: number, n: number) =>
  `${namespace}${PREFIX}${page}:${n}`

/** Whether a storage key is a record the loader keeps in the namespace. */
export const isKept = (namespace: string) => (key: string) => key.startsWith(namespace + PREFIX)

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
  // Random across visitors (the key tells one page's records apart); a page's own Math.random,
  // whatever it returns, still gives a word.
  const nonce = Math.floor(Math.random() * 2 ** 52)
    .toString(36)
    .slice(0, 12)
  if (
    (type === 'arrive' || type === 'signup' || type === 'click') &&
    words.length > 0 &&
    !words.includes('')
  )
    return `1 ${Date.now()} ${nonce} ${type} ${words.join(' ')}`
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
    // As the loader names them: the page's time origin and the record's number.
    const named = /^(\d{1,16}(?:\.\d{1,6})?):(\d{1,6})$/.exec(
      key.slice(namespace.length + PREFIX.length),
    )
    const page = Number(named?.[1])
    const n = Number(named?.[2])
    const record =
      /^1 (\d{1,15}) ([\w-]{1,12}) (arrive|signup|click) (\S{1,4096})(?: (\S{1,4096}))?$/.exec(
        text ?? '',
      )
    if (!record?.[4] || !named) continue
    const at = Number(record[1])
    const id = `kept_${Math.floor(page).toString(36)}_${n}_${record[2]}`
    const word = (value: string | undefined) => (value === '-' ? undefined : value)
    if (record[3] === 'arrive') {
      if (/^https?:\/\//.test(record[4]))
        kept.push({ type: 'arrive', href: record[4], at, page, n, id })
      continue
    }
    const [userId, code] =
      record[3] === 'signup' ? [word(record[4]), word(record[5])] : [undefined, word(record[4])]
    kept.push({
      type: record[3] as 'signup' | 'click',
      properties: { ...(userId ? { userId } : {}), ...(code ? { code } : {}) },
      at,
      page,
      n,
      id,
    })
  }
  return kept.sort((a, b) => a.page - b.page || a.n - b.n)
}

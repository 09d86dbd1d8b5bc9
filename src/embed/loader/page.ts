// What the loader reads of the page and of the widget's storage to decide, and the one thing it
// writes: an arrival, kept at once. Storage is read as the tracking part reads it (a call that
// throws means nothing is known), and never trusted beyond "something is there".
import { HANDOFF_PARAM } from '../../api/handoff.ts'
import { hasStoredConsent } from '../../core/consent-record.ts'
import { isKept, keptKey, keptText, MAX_KEPT } from '../../core/kept.ts'
import { readReferralCode } from '../../core/referral-url.ts'
import { defaultStorage } from '../../queue/storage.ts'
import { warnOnce } from '../../shared/log.ts'

/** Whether the address carries a referral: a link's code, or a hand-off from another domain. */
export function referralIn(href: string, refParams: readonly string[]): boolean {
  try {
    return (
      readReferralCode(href, refParams) !== null || new URL(href).searchParams.has(HANDOFF_PARAM)
    )
  } catch {
    return false
  }
}

/** The widget's keys in this namespace; none when storage cannot be listed. */
function widgetKeys(namespace: string): string[] {
  const keys: string[] = []
  try {
    const storage = defaultStorage()
    for (let i = 0; storage && i < storage.length; i++) {
      const key = storage.key(i)
      if (key?.startsWith(namespace)) keys.push(key)
    }
  } catch {}
  return keys
}

/**
 * What the widget keeps in this namespace: `toSend`, events waiting (or a record kept by a page
 * that closed before its tracking part ran); `kept`, how many such records; `held`, a referral;
 * `any`, anything at all (what forget() erases: the visitor id, the click list, the choice and the
 * cached link alone are no work).
 */
export function stored(namespace: string) {
  const keys = widgetKeys(namespace)
  const kept = keys.filter((key) => isKept(namespace, key)).length
  return {
    toSend: kept > 0 || keys.some((key) => key.startsWith(`${namespace}q:`)),
    kept,
    held: keys.includes(`${namespace}attribution`),
    any: keys.length > 0,
  }
}

/** Where consent is required: whether the visitor gave it on an earlier page. */
export const consentGiven = (namespace: string) => hasStoredConsent(defaultStorage(), namespace)

/** The records this page kept (each one's number), and how many more it may keep. */
let kept = 0
let room: number | undefined
/**
 * Keeps a record the tracking part will take: this page's arrival, or a track call made before
 * the part runs. True when kept; false where storage cannot take it (it refuses, or is full): a
 * call then waits in memory. Where MAX_KEPT records wait already (the queue's own bound), the
 * record is dropped, said once on the console, and the id of its announcement returned (for
 * event:dropped: `dropped_<n>`, the page's n-th call).
 */
export function keep(namespace: string, type: unknown, values: unknown[]): boolean | string {
  room ??= MAX_KEPT - stored(namespace).kept
  const n = kept++
  if (room <= 0) {
    warnOnce(`${MAX_KEPT} calls wait for the widget to load: more are dropped (event:dropped).`)
    return `dropped_${n}`
  }
  const text = keptText(type, values)
  if (!text) return false
  const key = keptKey(namespace, performance.timeOrigin, n)
  try {
    defaultStorage()?.setItem(key, text)
    if (defaultStorage()?.getItem(key) !== text) return false
    room--
    return true
  } catch {
    return false
  }
}

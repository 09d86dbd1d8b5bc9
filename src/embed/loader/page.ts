// What the loader reads of the page and of the widget's storage to decide, and the one thing it
// writes: an arrival, kept at once. Storage is read as the tracking part reads it (a call that
// throws means nothing is known), and never trusted beyond "something is there".
import { HANDOFF_PARAM } from '../../api/handoff.ts'
import { hasStoredConsent } from '../../core/consent-record.ts'
import { isKept, keptKey, keptText, MAX_KEPT } from '../../core/kept.ts'
import { readReferralCode } from '../../core/referral-url.ts'
import { defaultStorage } from '../../queue/storage.ts'
import { warnOnce } from '../../shared/log.ts'
import type { Tag } from './tag.ts'

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

/**
 * What the widget keeps in this namespace: `toSend`, events waiting (or a record kept by a page
 * that closed before its tracking part ran); `kept`, how many such records; `held`, a referral;
 * `any`, anything at all (what forget() erases: the visitor id, the click list, the choice and the
 * cached link alone are no work).
 */
export function stored(namespace: string) {
  // The widget's keys in this namespace; none when storage cannot be listed.
  const keys: string[] = []
  try {
    const storage = defaultStorage()
    for (let i = 0; storage && i < storage.length; i++) {
      const key = storage.key(i)
      if (key?.startsWith(namespace)) keys.push(key)
    }
  } catch {}
  const kept = keys.filter(isKept(namespace)).length
  return {
    toSend: kept > 0 || keys.some((key) => key.startsWith(`${namespace}q:`)),
    kept,
    held: keys.includes(`${namespace}attribution`),
    any: keys.length > 0,
  }
}

/** Whether the widget may store: consent given (on an earlier page), or not required. */
export const storing = (tag: Tag) =>
  !tag.consentRequired || hasStoredConsent(defaultStorage(), tag.namespace)

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
  const key = keptKey(namespace, performance.timeOrigin, n)
  const text = keptText(type, values)
  if (!text) return false
  try {
    const storage = defaultStorage()
    storage?.setItem(key, text)
    if (storage?.getItem(key) !== text) return false
    room--
    return true
  } catch {
    return false
  }
}

// The visitor's consent, where it is required: the one record read before consent is known (by
// the loader too), and read only as written.
import type { StorageLike } from '../queue/storage.ts'

/** The consent record, as the core writes it and the loader reads it: nothing else is consent. */
export const CONSENT_GIVEN = '{"v":1,"granted":true}'

/** Whether the visitor gave consent on an earlier page (the record exactly as written). */
export function hasStoredConsent(storage: StorageLike | undefined, namespace: string): boolean {
  try {
    return storage?.getItem(`${namespace}consent`) === CONSENT_GIVEN
  } catch {
    return false
  }
}

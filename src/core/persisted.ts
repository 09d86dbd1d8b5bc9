// What the widget keeps in storage under its namespace, each record with a version: anything
// else found there is discarded, never trusted. Storage is read every time (another tab may have
// written), but the same text is not parsed twice.
import { CLIENT_ID_PATTERN, CODE_PATTERN } from '../api/wire.ts'
import { jsonOf, type SafeStorage } from '../queue/storage.ts'
import { toJson } from '../shared/json.ts'
import { array, literal, number, object, type Parser, parse, string } from '../shared/parse.ts'
import { shortHash } from './short-hash.ts'

/** The version every stored record carries. */
export const v = literal(1)
const code = string(CODE_PATTERN)

export const StoredVisitor = /* @__PURE__ */ object({ v, id: string(CLIENT_ID_PATTERN) })
export const StoredAttribution = /* @__PURE__ */ object({ v, code, capturedAt: number })
export const StoredClicks = /* @__PURE__ */ object({ v, codes: array(code) })
/** The campaign's attribution window in days, as a page that knew the campaign last saw it. */
export const StoredWindow = /* @__PURE__ */ object({ v, days: number })

/** The cache's name for a user's link to a campaign: the user id is never stored as such. */
export const linkCacheName = (campaignId: string, userId: string) =>
  `link:${campaignId}:${shortHash(userId)}`

/* @__NO_SIDE_EFFECTS__ */
export function createPersisted(storage: SafeStorage, namespace: string) {
  const lastRead = new Map<string, { raw: string; parsed: unknown }>()
  return {
    namespace,
    storage,
    /**
     * The record, null when there is none (or it was broken: then it is removed), or undefined
     * when storage could not be read just now and this page has not read it before: nothing is
     * known, so a caller must not write over it.
     */
    read<T>(parser: Parser<T>, name: string): T | null | undefined {
      const key = namespace + name
      const raw = storage.get(key)
      const last = lastRead.get(key)
      // Unreadable now (the storage call threw): what this page read last, or nothing known.
      if (raw === undefined) return last?.parsed as T | undefined
      if (raw === null) return null
      if (last?.raw === raw) return last.parsed as T
      const parsed = parse(parser, jsonOf(raw))
      if (parsed === null)
        storage.remove(key) // broken or foreign: discarded
      else lastRead.set(key, { raw, parsed })
      return parsed
    },
    write(name: string, value: object) {
      lastRead.delete(namespace + name)
      storage.set(namespace + name, toJson({ v: 1, ...value }))
    },
    remove(name: string) {
      lastRead.delete(namespace + name)
      storage.remove(namespace + name)
    },
    /** Every key of the namespace removed: the visitor's data, the queue and the choice. */
    clear() {
      lastRead.clear()
      for (const key of storage.keys(namespace)) storage.remove(key)
    },
  }
}

export type Persisted = ReturnType<typeof createPersisted>

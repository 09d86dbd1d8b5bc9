// The last requests the service answered, for the demo page's live view. Keys are never
// recorded: only their kind and mode.

export interface LoggedRequest {
  seq: number
  at: string
  method: string
  path: string
  status: number
  key: string
  /** Event ids and their results, for /v1/events. */
  summary: string
}

const LIMIT = 200

export function createRequestLog() {
  let seq = 0
  const entries: LoggedRequest[] = []
  return {
    add(entry: Omit<LoggedRequest, 'seq'>) {
      seq += 1
      entries.push({ seq, ...entry })
      if (entries.length > LIMIT) entries.splice(0, entries.length - LIMIT)
    },
    since: (after: number) => entries.filter((entry) => entry.seq > after),
    clear() {
      entries.length = 0
    },
  }
}

export type RequestLog = ReturnType<typeof createRequestLog>

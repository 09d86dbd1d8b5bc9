// The other tabs of the same site and key: a tab that stores events tells the sending tab (once
// per burst), and a tab that is not the sender asks it to flush. Storage events reach other tabs
// late; a BroadcastChannel message is the prompt, never the judge of who sends. A hidden page
// (pagehide) closes its channel, so a page kept in the back/forward cache hears nothing that
// would evict it; shown again, it opens a new one.
import type { Timers } from '../shared/timers.ts'
import { randomId } from './ids.ts'

const FLUSH_REQUEST_TIMEOUT_MS = 3000

/* @__NO_SIDE_EFFECTS__ */
export function createTabs(options: {
  namespace: string
  timers: Timers
  random: () => number
  isSender: () => boolean
  /** Another tab stored events: send them with this tab's, after the coalescing window. */
  onQueued: () => void
  /** Another tab asked for a flush: settle it, then it is told. */
  onFlush: () => Promise<void>
}) {
  let channel: BroadcastChannel | undefined
  const pending = new Map<string, () => void>()
  let telling = false
  let closed = false

  function open() {
    try {
      const opened = new BroadcastChannel(`${options.namespace}channel`)
      // Node's BroadcastChannel would otherwise keep a server-side process alive.
      ;(opened as { unref?: () => void }).unref?.()
      opened.onmessage = (message: MessageEvent) => {
        const data: unknown = message.data
        if (typeof data !== 'object' || data === null || !('type' in data)) return
        const id = 'id' in data && typeof data.id === 'string' ? data.id : undefined
        if (data.type === 'queued' && options.isSender()) options.onQueued()
        if (data.type === 'flush' && id && options.isSender()) {
          void options.onFlush().then(() => channel?.postMessage({ type: 'flushed', id }))
        }
        if (data.type === 'flushed' && id) pending.get(id)?.()
      }
      channel = opened
    } catch {
      // None (older browsers, some sandboxes): tabs still share the queue through storage.
    }
  }

  /** The channel closed, and every flush request waiting on it settled. */
  function shut() {
    channel?.close()
    channel = undefined
    for (const finish of [...pending.values()]) finish()
  }

  open()

  return {
    /** This tab stored events: the sending tab hears of it once per burst. */
    queued() {
      if (telling || !channel) return
      telling = true
      queueMicrotask(() => {
        telling = false
        if (!closed && !options.isSender()) channel?.postMessage({ type: 'queued' })
      })
    },
    /** Asks the sending tab to flush; settles when it answers, or after a few seconds. */
    requestFlush(): Promise<void> {
      const asked = channel
      if (!asked) return Promise.resolve()
      const id = randomId('f', options.random)
      return new Promise<void>((resolve) => {
        const timer = options.timers.setTimeout(finish, FLUSH_REQUEST_TIMEOUT_MS)
        function finish() {
          options.timers.clearTimeout(timer)
          pending.delete(id)
          resolve()
        }
        pending.set(id, finish)
        asked.postMessage({ type: 'flush', id })
      })
    },
    /** The page is hidden: no channel while it may sit in the back/forward cache. */
    suspend: shut,
    /** Shown again from the cache. */
    resume() {
      if (!closed && !channel) open()
    },
    close() {
      closed = true
      shut()
    },
  }
}

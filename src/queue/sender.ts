// Which tab sends. One tab at a time holds the role for a key's namespace: an exclusive Web Lock,
// held while the page is shown and released by the browser when the tab goes. A page that is
// hidden (pagehide: left for another page, perhaps into the back/forward cache) gives the lock up,
// or its request for it, so a cached page holds nothing the next page of the site asks for (that
// would evict it); shown again from the cache (pageshow), it asks again. Where Web Locks are
// missing (browsers older than 2022) or the lock manager refuses (a sandboxed frame), every tab
// sends: the service counts each event id once, so the counts stay exact. Storage events arrive
// late, so nothing here trusts them to decide.

import { own } from '../shared/own.ts'

export interface LockManagerLike {
  request(
    name: string,
    options: { mode: 'exclusive'; signal?: AbortSignal },
    callback: () => Promise<void>,
  ): Promise<unknown>
}

export interface Sender {
  /** Checked before every send. */
  isSender(): boolean
  /** Called when this tab becomes the sender (at once if it already is). */
  onAcquire(listener: () => void): void
  release(): void
  /** The page is hidden: the lock, or the request for it, is given up until `resume`. */
  pause(): void
  /** The page is shown again (from the back/forward cache): the lock is asked for again. */
  resume(): void
}

/* @__NO_SIDE_EFFECTS__ */
export function createSender(options: {
  name: string
  locks: LockManagerLike | undefined
}): Sender {
  const { locks } = options
  const listeners: Array<() => void> = []
  let released = false
  let paused = false
  /** Without a lock manager every tab sends; with one, only the holder. */
  let everyTab = !locks
  let held = false
  /** Ends this tab's hold on the lock, or its wait for it. */
  let giveUp = () => {}

  const acquire = () => {
    held = true
    if (!released && !paused) for (const listener of listeners) listener()
  }
  const alone = () => {
    if (held || released) return
    everyTab = true
    acquire()
  }

  const request = () => {
    if (!locks || everyTab) return
    const waiting = new AbortController()
    const until = new Promise<void>((resolve) => {
      giveUp = () => {
        held = false
        waiting.abort()
        resolve()
      }
    })
    try {
      locks
        .request(
          `${options.name}sender`,
          own({ mode: 'exclusive' as const, signal: waiting.signal }),
          () => {
            if (waiting.signal.aborted) return Promise.resolve()
            acquire()
            return until
          },
        )
        // Refused (not given up by this tab): every tab sends.
        .catch(() => {
          if (!waiting.signal.aborted) alone()
        })
    } catch {
      alone()
    }
  }

  if (locks) request()
  else held = true

  return {
    isSender: () => !released && (everyTab || (held && !paused)),
    onAcquire: (listener) => {
      listeners.push(listener)
      if (!released && !paused && held) listener()
    },
    release: () => {
      released = true
      giveUp()
    },
    // Without a lock there is nothing to give up: every tab sends, hidden or not.
    pause() {
      if (paused || released || everyTab) return
      paused = true
      giveUp()
    },
    resume() {
      if (!paused || released) return
      paused = false
      request()
    },
  }
}

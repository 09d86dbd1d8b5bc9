// Which tab sends. One tab at a time holds the role for a key's namespace: an exclusive Web Lock,
// held for the tab's lifetime and released by the browser when the tab goes. Where Web Locks are
// missing (browsers older than 2022) or the lock manager refuses (a sandboxed frame), every tab
// sends: the service counts each event id once, so the counts stay exact. Storage events arrive
// late, so nothing here trusts them to decide.

import { own } from '../shared/own.ts'

export interface LockManagerLike {
  request(
    name: string,
    options: { mode: 'exclusive' },
    callback: () => Promise<void>,
  ): Promise<unknown>
}

export interface Sender {
  /** Checked before every send. */
  isSender(): boolean
  /** Called when this tab becomes the sender (at once if it already is). */
  onAcquire(listener: () => void): void
  release(): void
}

/* @__NO_SIDE_EFFECTS__ */
export function createSender(options: {
  name: string
  locks: LockManagerLike | undefined
}): Sender {
  const listeners: Array<() => void> = []
  let released = false
  /** Without a lock manager every tab sends; with one, only the holder. */
  let everyTab = !options.locks
  let held = false
  let unlock = () => {}

  const acquire = () => {
    held = true
    if (!released) for (const listener of listeners) listener()
  }
  const alone = () => {
    if (held || released) return
    everyTab = true
    acquire()
  }

  if (options.locks) {
    const until = new Promise<void>((resolve) => {
      unlock = resolve
    })
    try {
      options.locks
        .request(`${options.name}sender`, own({ mode: 'exclusive' as const }), () => {
          acquire()
          return until
        })
        .catch(alone)
    } catch {
      alone()
    }
  } else {
    held = true
  }

  return {
    isSender: () => !released && (everyTab || held),
    onAcquire: (listener) => {
      listeners.push(listener)
      if (!released && held) listener()
    },
    release: () => {
      released = true
      held = false
      unlock()
    },
  }
}

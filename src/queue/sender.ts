// One sender at a time for a key's namespace, and no lock while idle. A send pass runs holding an
// exclusive Web Lock: asked for when there is something to send, let go when the pass ends. A tab
// whose pass comes second waits, then finds what the first one sent gone from storage. An idle
// page holds no lock and waits for none, so every engine may keep it in the back/forward cache
// (Firefox decides before `pagehide` runs: a lock given up there is given up too late). A page
// that is hidden (`pagehide`) ends its wait, lets a held lock go, and starts no pass until it is
// shown again. Where Web Locks are missing (browsers older than 2022) or the lock manager refuses
// (a sandboxed frame), every tab sends: the service counts each event id once.

import { own } from '../shared/own.ts'

export interface LockManagerLike {
  request(
    name: string,
    options: { mode: 'exclusive'; signal?: AbortSignal },
    callback: () => Promise<void>,
  ): Promise<unknown>
}

export interface Sender {
  /**
   * Runs `pass` as the namespace's only sender: once this tab holds the lock (at once where every
   * tab sends). Settles when the pass has ended, or at once when the page is hidden or released
   * before its turn. `holding()` turns false when the lock is let go during the pass (the page
   * was hidden): the pass sends nothing more.
   */
  run(pass: (holding: () => boolean) => Promise<void>): Promise<void>
  /** The page is hidden: a wait for the lock ends, a held one is let go, no pass starts. */
  pause(): void
  /** The page is shown again (from the back/forward cache). */
  resume(): void
  release(): void
}

/* @__NO_SIDE_EFFECTS__ */
export function createSender(options: {
  name: string
  locks: LockManagerLike | undefined
}): Sender {
  const { locks } = options
  let stopped = false
  let paused = false
  /** Without a lock manager, or with one that refuses: every tab sends. */
  let everyTab = !locks
  /** Ends this tab's hold on the lock, or its wait for it. */
  let letGo = () => {}

  const run = (pass: (holding: () => boolean) => Promise<void>): Promise<void> => {
    if (stopped || (paused && !everyTab)) return Promise.resolve()
    if (!locks || everyTab) return pass(() => !stopped)
    return new Promise<void>((settle) => {
      const waiting = new AbortController()
      const send = (): Promise<void> => pass(() => !waiting.signal.aborted).then(settle, settle)
      const alone = () => {
        everyTab = true
        void send()
      }
      let end = () => {}
      const held = new Promise<void>((resolve) => {
        end = resolve
      })
      letGo = () => {
        waiting.abort()
        end()
      }
      try {
        locks
          .request(
            `${options.name}sender`,
            own({ mode: 'exclusive' as const, signal: waiting.signal }),
            () => {
              if (waiting.signal.aborted) {
                settle()
                return Promise.resolve()
              }
              // Held for this pass only: let go when it ends, or sooner if the page is hidden.
              void send().then(end)
              return held
            },
          )
          // Refused (not given up by this tab): every tab sends.
          .catch(() => (waiting.signal.aborted ? settle() : alone()))
      } catch {
        alone()
      }
    })
  }

  return {
    run,
    pause() {
      paused = true
      letGo()
    },
    resume() {
      paused = false
    },
    release() {
      stopped = true
      letGo()
    },
  }
}

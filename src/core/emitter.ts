/** An announcement as the history keeps it: its name, its payload, and when (device ms). */
export type Emitted<Events> = [name: keyof Events, payload: unknown, at: number]

/** How many announcements the history keeps: what debug mode and diagnose() read of the past. */
export const HISTORY = 50

/**
 * Announcements to listeners. With `now`, the last HISTORY are kept too (`history`, oldest
 * first): the debug file, loaded later, reads what happened before it came.
 */
/* @__NO_SIDE_EFFECTS__ */
export function createEmitter<Events extends object>(now?: () => number) {
  const listeners = new Map<keyof Events, Set<(payload: never) => void>>()
  const history: Array<Emitted<Events>> = []
  /** While recording (start-up), what was emitted, replayed to listeners that attach late. */
  let recorded: Array<[keyof Events, unknown]> | null = null
  return {
    history,
    /** Starts recording emissions for listeners attached before stopRecording(). */
    record() {
      recorded ??= []
    },
    stopRecording() {
      recorded = null
    },
    on<K extends keyof Events>(name: K, listener: (payload: Events[K]) => void): () => void {
      let set = listeners.get(name)
      if (!set) {
        set = new Set()
        listeners.set(name, set)
      }
      set.add(listener)
      const earlier = recorded?.filter(([emitted]) => emitted === name) ?? []
      if (earlier.length > 0) {
        // Start-up already announced this: the late listener hears it right after this task.
        queueMicrotask(() => {
          for (const [, payload] of earlier) if (set.has(listener)) listener(payload as Events[K])
        })
      }
      return () => void set.delete(listener)
    },
    emit<K extends keyof Events>(name: K, payload: Events[K]) {
      recorded?.push([name, payload])
      if (now && history.push([name, payload, now()]) > HISTORY) history.shift()
      for (const listener of listeners.get(name) ?? []) {
        // One failing listener must not stop the others, nor the widget.
        try {
          ;(listener as (payload: Events[K]) => void)(payload)
        } catch (error) {
          console.error('[referral] a listener of', String(name), 'threw:', error)
        }
      }
    },
    clear() {
      // Emptied in place too: a replay already scheduled finds its listener gone.
      for (const set of listeners.values()) set.clear()
      listeners.clear()
      recorded = null
    },
  }
}

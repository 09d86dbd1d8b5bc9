/* @__NO_SIDE_EFFECTS__ */
export function createEmitter<Events extends object>() {
  const listeners = new Map<keyof Events, Set<(payload: never) => void>>()
  /** While recording (start-up), what was emitted, replayed to listeners that attach late. */
  let recorded: Array<[keyof Events, unknown]> | null = null
  return {
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

/* @__NO_SIDE_EFFECTS__ */
export function createEmitter<Events extends object>() {
  const listeners = new Map<keyof Events, Set<(payload: never) => void>>()
  return {
    on<K extends keyof Events>(name: K, listener: (payload: Events[K]) => void): () => void {
      let set = listeners.get(name)
      if (!set) {
        set = new Set()
        listeners.set(name, set)
      }
      set.add(listener)
      return () => void set.delete(listener)
    },
    emit<K extends keyof Events>(name: K, payload: Events[K]) {
      for (const listener of listeners.get(name) ?? []) {
        // One failing listener must not stop the others, nor the widget.
        try {
          ;(listener as (payload: Events[K]) => void)(payload)
        } catch (error) {
          console.error('[referral] a listener of', String(name), 'threw:', error)
        }
      }
    },
    clear: () => listeners.clear(),
  }
}

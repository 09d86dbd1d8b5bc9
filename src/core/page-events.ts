// The page's own events the tracking core follows: connectivity, leaving and coming back through
// the back/forward cache, and other tabs' writes to the widget's storage.
import type { Queue } from '../queue/queue.ts'
import type { Host } from './host.ts'

/** Subscribes; returns the unsubscribe functions. */
export function listenToPage(page: {
  host: Host
  /** The widget's storage keys start with it: another key's change is the host's own. */
  namespace: string
  queue: Queue
  /** The core's announcements: the queue changed, or the page was restored from the cache. */
  events: { emit(name: 'change' | 'restored', payload: undefined): void }
}): Array<() => void> {
  const { host, namespace, queue, events } = page
  return [
    host.listen('online', () => {
      events.emit('change', undefined)
      queue.send((sending) => sending.online())
    }),
    host.listen('offline', () => events.emit('change', undefined)),
    // Left (perhaps into the back/forward cache): what waits goes by beacon, and a send pass
    // under way lets the lock go, which the site's next page would otherwise contend for.
    host.listen('pagehide', () => {
      queue.persist()
      queue.sending()?.beacon()
      queue.sending()?.pause()
    }),
    // Shown again from the cache: the page carries on where it was, on the real clock.
    host.listen('pageshow', (event) => {
      if (!(event as PageTransitionEvent).persisted) return
      queue.sending()?.resume()
      queue.send((sending) => sending.kick())
      events.emit('restored', undefined)
      events.emit('change', undefined)
    }),
    host.listen('storage', (event) => {
      const changed = (event as StorageEvent).key
      if (changed !== null && !changed.startsWith(namespace)) return
      events.emit('change', undefined)
      if (changed?.startsWith(`${namespace}q:`)) queue.send((sending) => sending.watch(), true)
    }),
  ]
}

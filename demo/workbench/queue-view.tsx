// A widget's stored queue, read from its localStorage keys: the events waiting, the delivery
// state (rate-limited, backing off, offline, sending) and the namespace's other keys.
import * as z from 'zod/mini'
import { clockTime, fromNow } from './format.ts'
import { useNow } from './hooks.ts'

const StoredEvent = z.object({
  id: z.string(),
  type: z.string(),
  code: z.optional(z.string()),
  userId: z.optional(z.string()),
  queuedAt: z.number(),
  attempts: z.number(),
})
const Chunk = z.object({ events: z.array(StoredEvent) })
const Delivery = z.object({
  pausedUntil: z.number(),
  attempt: z.number(),
  nextAttemptAt: z.number(),
})

interface QueueSnapshot {
  events: Array<z.infer<typeof StoredEvent>>
  delivery: z.infer<typeof Delivery> | null
  other: Array<[string, string]>
  /** Keys of other namespaces (another key or mode). */
  elsewhere: number
  broken: string[]
}

/**
 * The namespace's keys read as the widget reads them: the queue's chunks and the delivery state
 * are JSON (broken when they do not parse as the widget's own); every other key is shown as it is
 * stored, since several are plain text by design (`own`, `done`, the loader's `kept:` records).
 */
export function readQueue(
  entries: ReadonlyArray<readonly [string, string]>,
  namespace: string | null,
) {
  const snapshot: QueueSnapshot = {
    events: [],
    delivery: null,
    other: [],
    elsewhere: 0,
    broken: [],
  }
  const json = (raw: string): unknown => {
    try {
      return JSON.parse(raw)
    } catch {
      return undefined
    }
  }
  for (const [key, raw] of entries) {
    if (namespace === null || !key.startsWith(namespace)) {
      snapshot.elsewhere += 1
      continue
    }
    const name = key.slice(namespace.length)
    if (name.startsWith('q:')) {
      const chunk = Chunk.safeParse(json(raw))
      if (chunk.success) snapshot.events.push(...chunk.data.events)
      else snapshot.broken.push(name)
    } else if (name === 'delivery') {
      const delivery = Delivery.safeParse(json(raw))
      if (delivery.success) snapshot.delivery = delivery.data
      else snapshot.broken.push(name)
    } else snapshot.other.push([name, raw])
  }
  snapshot.events.sort((a, b) => a.queuedAt - b.queuedAt)
  return snapshot
}

function deliveryState(snapshot: QueueSnapshot, offline: boolean, now: number) {
  const { delivery } = snapshot
  if (delivery && delivery.pausedUntil > now) {
    return {
      state: 'rate-limited',
      text: `Rate-limited until ${clockTime(delivery.pausedUntil)} (${fromNow(delivery.pausedUntil, now)}): nothing is sent before.`,
    }
  }
  if (delivery && delivery.attempt > 0 && delivery.nextAttemptAt > now) {
    return {
      state: 'retrying',
      text: `Backing off after ${delivery.attempt} failed ${delivery.attempt === 1 ? 'try' : 'tries'}: next try at ${clockTime(delivery.nextAttemptAt)} (${fromNow(delivery.nextAttemptAt, now)}).`,
    }
  }
  if (offline && snapshot.events.length > 0) {
    return { state: 'offline', text: 'Offline: the events wait until the widget is back online.' }
  }
  if (snapshot.events.length > 0) {
    return { state: 'sending', text: 'Events waiting: the sending tab tries now.' }
  }
  return { state: 'idle', text: 'Nothing waiting.' }
}

export function QueuePane(props: {
  id: string
  title: string
  subtitle: string
  entries: ReadonlyArray<readonly [string, string]> | null
  namespace: string | null
  offline: boolean
}) {
  const now = useNow()
  if (props.entries === null) {
    return (
      <div class="pane" data-testid={`queue-${props.id}`}>
        <h3>{props.title}</h3>
        <p class="muted">{props.subtitle}</p>
      </div>
    )
  }
  const snapshot = readQueue(props.entries, props.namespace)
  const delivery = deliveryState(snapshot, props.offline, now)
  return (
    <div class="pane" data-testid={`queue-${props.id}`}>
      <h3>{props.title}</h3>
      <p class="muted">{props.subtitle}</p>
      <p
        class={`delivery delivery-${delivery.state}`}
        data-testid={`delivery-${props.id}`}
        data-state={delivery.state}
      >
        {delivery.text}
      </p>
      {snapshot.events.length > 0 ? (
        <ol class="rows" aria-label={`${props.title}: stored events`}>
          {snapshot.events.map((event) => (
            <li key={event.id} class="row" data-testid="queued-event">
              <span class="tag">{event.type}</span>
              <span class="mono">{event.code ?? event.userId ?? ''}</span>
              <span class="muted">queued {fromNow(event.queuedAt, now)}</span>
              <span>attempts: {event.attempts}</span>
              <span class="mono muted small">{event.id}</span>
            </li>
          ))}
        </ol>
      ) : (
        <p class="muted small">No events stored.</p>
      )}
      {snapshot.delivery && (
        <p class="muted small mono">
          delivery: pausedUntil{' '}
          {snapshot.delivery.pausedUntil ? clockTime(snapshot.delivery.pausedUntil) : '–'} · attempt{' '}
          {snapshot.delivery.attempt} · nextAttemptAt{' '}
          {snapshot.delivery.nextAttemptAt ? clockTime(snapshot.delivery.nextAttemptAt) : '–'}
        </p>
      )}
      {snapshot.broken.length > 0 && (
        <p class="error small">
          Unreadable: {snapshot.broken.join(', ')} (the widget discards these)
        </p>
      )}
      <details>
        <summary>
          Other keys of this namespace ({snapshot.other.length})
          {snapshot.elsewhere > 0 && `, ${snapshot.elsewhere} of other keys`}
        </summary>
        <p class="muted small mono">{props.namespace ?? 'no namespace: the key is refused'}</p>
        <dl class="raw">
          {snapshot.other.map(([name, raw]) => (
            <div key={name}>
              <dt class="mono">{name}</dt>
              <dd class="mono">{raw}</dd>
            </div>
          ))}
        </dl>
      </details>
    </div>
  )
}

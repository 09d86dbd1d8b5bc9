// The live views: the campaign's stats, the widget's stored queue, the Referral.on(...) stream
// and the requests the service answered. All of them refresh by themselves.
import { useStore } from '@nanostores/preact'
import * as z from 'zod/mini'
import type { Campaign, LoggedRequest } from './api.ts'
import { clockTime, fromNow, money } from './format.ts'
import { useNow } from './hooks.ts'
import { $events, type LoggedEvent } from './hub.ts'

// --- stats ---------------------------------------------------------------------------------

export function StatsView(props: {
  campaign: Campaign | undefined
  error: string | null
  note: string
}) {
  const { campaign } = props
  return (
    <section class="card view" aria-labelledby="stats-title" data-testid="stats-view">
      <h2 id="stats-title">Campaign stats</h2>
      {campaign ? (
        <>
          <p class="lead">
            <strong>{campaign.name}</strong>{' '}
            <span class={`badge status-${campaign.status}`} data-testid="stat-status">
              {campaign.status}
            </span>
          </p>
          <p class="muted mono">{campaign.id}</p>
          <dl class="stats">
            <div>
              <dt>Clicks</dt>
              <dd data-testid="stat-clicks">{campaign.stats.totalClicks}</dd>
            </div>
            <div>
              <dt>Conversions</dt>
              <dd data-testid="stat-conversions">{campaign.stats.totalConversions}</dd>
            </div>
            <div>
              <dt>Rewards issued</dt>
              <dd data-testid="stat-rewards">{campaign.stats.totalRewardsIssued}</dd>
            </div>
          </dl>
          <p class="muted">
            Referrer gets {money(campaign.referrerReward.amount, campaign.referrerReward.currency)},
            friend gets {money(campaign.referredReward.amount, campaign.referredReward.currency)} ·
            attribution window {campaign.attributionWindow}
          </p>
        </>
      ) : (
        <p class="muted">{props.note}</p>
      )}
      {props.error && <p class="error">{props.error}</p>}
    </section>
  )
}

// --- queue ---------------------------------------------------------------------------------

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

function readQueue(entries: ReadonlyArray<readonly [string, string]>, namespace: string | null) {
  const snapshot: QueueSnapshot = {
    events: [],
    delivery: null,
    other: [],
    elsewhere: 0,
    broken: [],
  }
  for (const [key, raw] of entries) {
    if (namespace === null || !key.startsWith(namespace)) {
      snapshot.elsewhere += 1
      continue
    }
    const name = key.slice(namespace.length)
    let value: unknown
    try {
      value = JSON.parse(raw)
    } catch {
      snapshot.broken.push(name)
      continue
    }
    if (name.startsWith('q:')) {
      const chunk = Chunk.safeParse(value)
      if (chunk.success) snapshot.events.push(...chunk.data.events)
      else snapshot.broken.push(name)
    } else if (name === 'delivery') {
      const delivery = Delivery.safeParse(value)
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

// --- events --------------------------------------------------------------------------------

const SOURCES = ['script tag', 'Preact', 'visitor'] as const

export function EventsView() {
  const events = useStore($events)
  return (
    <section class="card view" aria-labelledby="events-title" data-testid="events-view">
      <div class="view-head">
        <h2 id="events-title">Referral.on(…) events</h2>
        <button type="button" class="small-button" onClick={() => $events.set([])}>
          Clear
        </button>
      </div>
      <p class="muted small">
        ready, link, event:queued, event:sent, event:dropped, ratelimited, error, and the widget’s
        console messages; from the {SOURCES.join(', ')} widgets. Newest first.
      </p>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard */}
      <section class="scroll" tabIndex={0} aria-label="Events, newest first">
        {events.length === 0 ? (
          <p class="muted">No events yet.</p>
        ) : (
          <ol class="rows">
            {events.map((event) => (
              <EventRow key={event.id} event={event} />
            ))}
          </ol>
        )}
      </section>
    </section>
  )
}

function EventRow({ event }: { event: LoggedEvent }) {
  const tone =
    event.name.startsWith('console.error') || event.name === 'error'
      ? 'bad'
      : event.name === 'ratelimited' ||
          event.name === 'event:dropped' ||
          event.name === 'console.warn'
        ? 'warn'
        : 'ok'
  return (
    <li class="row" data-testid="event-row" data-name={event.name} data-source={event.source}>
      <span class="muted mono">{clockTime(event.at)}</span>
      <span class="tag">{event.source}</span>
      <strong class={`tone-${tone}`}>{event.name}</strong>
      <span class="mono detail">{event.detail}</span>
    </li>
  )
}

// --- requests ------------------------------------------------------------------------------

export function RequestsView(props: {
  requests: LoggedRequest[] | undefined
  error: string | null
}) {
  const requests = [...(props.requests ?? [])].reverse()
  return (
    <section class="card view" aria-labelledby="requests-title" data-testid="requests-view">
      <h2 id="requests-title">Requests to the service</h2>
      <p class="muted small">
        What the local service answered on /v1, newest first (the last 200; keys show as their kind
        only). Time is the service’s clock.
      </p>
      {props.error && <p class="error">{props.error}</p>}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard */}
      <section class="scroll" tabIndex={0} aria-label="Requests, newest first">
        {requests.length === 0 ? (
          <p class="muted" data-testid="requests-empty">
            No requests yet.
          </p>
        ) : (
          <ol class="rows">
            {requests.map((request) => (
              <li
                key={request.seq}
                class="row"
                data-testid="request-row"
                data-status={request.status}
                data-path={request.path}
              >
                <span class="muted mono">#{request.seq}</span>
                <span class="muted mono">{clockTime(Date.parse(request.at))}</span>
                <span class="mono">
                  {request.method} {request.path}
                </span>
                <strong class={`status status-${Math.floor(request.status / 100)}xx`}>
                  {request.status}
                </strong>
                <span class="tag">{request.key}</span>
                {request.summary && <span class="mono detail">{request.summary}</span>}
              </li>
            ))}
          </ol>
        )}
      </section>
    </section>
  )
}

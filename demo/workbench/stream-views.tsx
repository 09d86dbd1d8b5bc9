// The live streams: the widgets' Referral.on(...) events and the requests the service answered.
// Both refresh by themselves.
import { useStore } from '@nanostores/preact'
import type { LoggedRequest } from './api.ts'
import { clockTime } from './format.ts'
import { $events, type LoggedEvent } from './hub.ts'

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

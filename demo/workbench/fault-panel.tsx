// Fault injection (the service's next N test-mode answers: 429, 503 or slow) and the simulated
// offline switch every widget of the page follows.
import { useStore } from '@nanostores/preact'
import { useState } from 'preact/hooks'
import { demoApi, type FaultPlan } from './api.ts'
import { Group, Outcome, useAction } from './control-group.tsx'
import { $offline } from './hub.ts'

export function describeFault(fault: FaultPlan | null | undefined): string {
  if (fault === undefined) return '…'
  if (fault === null) return 'none'
  const next = `next ${fault.count} test-mode answer${fault.count === 1 ? '' : 's'}`
  if (fault.kind === 'rate-limit') return `${next}: 429, Retry-After ${fault.retryAfterSeconds} s`
  if (fault.kind === 'unavailable') return `${next}: 503`
  return `${next}: slowed by ${fault.delayMs} ms`
}

export function FaultPanel(props: { fault: FaultPlan | null | undefined; liveKey: boolean }) {
  const offline = useStore($offline)
  const { busy, outcome, run } = useAction()
  const [kind, setKind] = useState<FaultPlan['kind']>('rate-limit')
  const [count, setCount] = useState('2')
  const [retryAfter, setRetryAfter] = useState('5')
  const [delay, setDelay] = useState('3000')

  const plan = (): FaultPlan => {
    const n = Number(count)
    if (kind === 'rate-limit') return { kind, count: n, retryAfterSeconds: Number(retryAfter) }
    if (kind === 'unavailable') return { kind, count: n }
    return { kind, count: n, delayMs: Number(delay) }
  }

  return (
    <Group id="faults-title" title="Faults and offline">
      <p>
        Armed: <strong data-testid="fault-current">{describeFault(props.fault)}</strong>
      </p>
      <p class="muted small">
        For test mode only: the next N answers to a pk_test_/sk_test_ request on /v1 (campaign, link
        or events), whoever sends it. Live keys are never faulted. Arm, then act (e.g. sign the
        visitor up).
      </p>
      {props.liveKey && <p class="note">The chosen key is a live key: faults do not touch it.</p>}
      <form
        class="subform"
        aria-labelledby="fault-form-title"
        onSubmit={(event) => {
          event.preventDefault()
          void run(async () => {
            const answer = await demoApi.setFault(plan())
            // The live line above is the one count: a copy here would go stale as answers use it.
            return answer.fault
              ? 'Fault armed: the count above goes down with each faulted answer.'
              : 'No fault armed.'
          })
        }}
      >
        <h3 id="fault-form-title" class="visually-hidden">
          Arm a fault
        </h3>
        <fieldset>
          <legend>Answer with</legend>
          {(
            [
              ['rate-limit', '429 Too Many Requests'],
              ['unavailable', '503 Service Unavailable'],
              ['slow', 'Slow answers'],
            ] as const
          ).map(([value, label]) => (
            <label class="check" key={value} for={`fault-${value}`}>
              <input
                id={`fault-${value}`}
                type="radio"
                name="fault-kind"
                value={value}
                checked={kind === value}
                onChange={() => setKind(value)}
              />
              <span>{label}</span>
            </label>
          ))}
        </fieldset>
        <div class="two">
          <div class="field">
            <label for="fault-count">Next N answers</label>
            <input
              id="fault-count"
              type="number"
              min="1"
              max="100"
              value={count}
              onInput={(event) => setCount(event.currentTarget.value)}
            />
          </div>
          {kind === 'rate-limit' && (
            <div class="field">
              <label for="fault-retry-after">Retry-After (s)</label>
              <input
                id="fault-retry-after"
                type="number"
                min="1"
                max="3600"
                value={retryAfter}
                onInput={(event) => setRetryAfter(event.currentTarget.value)}
              />
            </div>
          )}
          {kind === 'slow' && (
            <div class="field">
              <label for="fault-delay">Delay (ms)</label>
              <input
                id="fault-delay"
                type="number"
                min="1"
                max="30000"
                value={delay}
                onInput={(event) => setDelay(event.currentTarget.value)}
              />
            </div>
          )}
        </div>
        <div class="buttons">
          <button type="submit" class="primary" disabled={busy}>
            Arm fault
          </button>
          <button
            type="button"
            disabled={busy || !props.fault}
            onClick={() =>
              run(async () => {
                await demoApi.clearFault()
                return 'No fault armed.'
              })
            }
          >
            Clear fault
          </button>
        </div>
      </form>
      <Outcome outcome={outcome} testId="fault-outcome" />
      <label class="check offline" for="offline-toggle">
        <input
          id="offline-toggle"
          type="checkbox"
          checked={offline}
          onChange={(event) => $offline.set(event.currentTarget.checked)}
        />
        <span>Widgets offline (simulated)</span>
      </label>
      <p class="muted small">
        Every widget here (both referrer widgets and the visitor) sees navigator.onLine = false, an{' '}
        <code>offline</code> event, and failing requests. For the browser’s own offline mode use
        DevTools → Network → Offline (this page’s live views then stop too).
      </p>
    </Group>
  )
}

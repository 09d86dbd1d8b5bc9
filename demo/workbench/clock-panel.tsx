// The service's clock, moved forward to test the attribution window.
import { useState } from 'preact/hooks'
import { demoApi } from './api.ts'
import { Group, Outcome, useAction } from './control-group.tsx'
import { offsetText } from './format.ts'

const HOUR = 3_600_000
const DAY = 24 * HOUR

export function ClockPanel(props: { now: string | undefined; window: string | undefined }) {
  const { busy, outcome, run } = useAction()
  const [days, setDays] = useState('10')
  const serviceNow = props.now ? Date.parse(props.now) : null
  const advance = (ms: number, label: string) =>
    run(async () => {
      const answer = await demoApi.advanceClock(ms)
      return `Moved forward ${label}: the service’s time is now ${answer.now}.`
    })
  return (
    <Group id="clock-title" title="Service clock">
      <p>
        <span class="mono" data-testid="clock-now">
          {props.now ?? '…'}
        </span>
        <br />
        <span class="muted small" data-testid="clock-offset">
          {serviceNow === null ? '' : offsetText(serviceNow - Date.now())}
        </span>
      </p>
      <p class="muted small">
        The service counts the attribution window with its own clock: a signup later than the window
        after the click is not attributed
        {props.window ? ` (this campaign: ${props.window})` : ''}.
      </p>
      <div class="buttons">
        <button type="button" disabled={busy} onClick={() => advance(HOUR, '1 hour')}>
          +1 hour
        </button>
        <button type="button" disabled={busy} onClick={() => advance(DAY, '1 day')}>
          +1 day
        </button>
        <button type="button" disabled={busy} onClick={() => advance(7 * DAY, '7 days')}>
          +7 days
        </button>
        <button type="button" disabled={busy} onClick={() => advance(31 * DAY, '31 days')}>
          +31 days
        </button>
      </div>
      <form
        class="inline-form"
        onSubmit={(event) => {
          event.preventDefault()
          void advance(Number(days) * DAY, `${days} days`)
        }}
      >
        <label for="clock-days">Move forward by (days)</label>
        <input
          id="clock-days"
          type="number"
          min="0"
          max="400"
          step="any"
          value={days}
          onInput={(event) => setDays(event.currentTarget.value)}
        />
        <button type="submit" disabled={busy}>
          Move
        </button>
      </form>
      <Outcome outcome={outcome} testId="clock-outcome" />
    </Group>
  )
}

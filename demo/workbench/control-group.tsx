// What every control panel is made of: a collapsible group, and an action runner whose outcome
// shows in the panel's status line (and makes every live view ask again).
import type { ComponentChildren } from 'preact'
import { useState } from 'preact/hooks'
import { errorText } from './format.ts'
import { refreshAll } from './hub.ts'

interface Outcome {
  text: string
  error: boolean
}

/** Runs an action, keeping its outcome for a status line. */
export function useAction() {
  const [busy, setBusy] = useState(false)
  const [outcome, setOutcome] = useState<Outcome | null>(null)
  const run = async (action: () => Promise<string>) => {
    setBusy(true)
    try {
      setOutcome({ text: await action(), error: false })
    } catch (failure) {
      setOutcome({ text: errorText(failure), error: true })
    } finally {
      setBusy(false)
      refreshAll()
    }
  }
  return { busy, outcome, run }
}

export type RunAction = ReturnType<typeof useAction>['run']

export function Outcome(props: { outcome: Outcome | null; testId: string }) {
  return (
    <p
      class={props.outcome?.error ? 'outcome error' : 'outcome'}
      role="status"
      data-testid={props.testId}
    >
      {props.outcome?.text ?? ''}
    </p>
  )
}

export function Group(props: { id: string; title: string; children: ComponentChildren }) {
  return (
    <details class="card group" open>
      <summary>
        <h2 id={props.id}>{props.title}</h2>
      </summary>
      {props.children}
    </details>
  )
}

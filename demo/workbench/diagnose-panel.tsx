// The diagnosis of the widget this page shows (its diagnose(): the build, key and host, the
// service reached and how fast, the campaign, storage, consent, the referral held, the queue, the
// decisions with their codes), run on demand, each part in a row and each decision linked to its
// section of docs/TROUBLESHOOTING.md.
import { useState } from 'preact/hooks'
import { sectionOf } from '../../src/core/debug/explain.ts'
import type { Diagnosis } from '../../src/core/diagnosis.ts'
import type { Referral } from '../../src/core/types.ts'
import { errorText } from './format.ts'

export function DiagnosePanel(props: { referral: Referral }) {
  const [report, setReport] = useState<Diagnosis | null>(null)
  const [failure, setFailure] = useState<string | null>(null)
  const [running, setRunning] = useState(false)
  const run = () => {
    setRunning(true)
    props.referral.diagnose().then(
      (answer) => {
        setReport(answer)
        setFailure(null)
        setRunning(false)
      },
      (error: unknown) => {
        setFailure(errorText(error))
        setRunning(false)
      },
    )
  }
  const { decisions = [], ...parts } = report ?? {}
  return (
    <section class="card diagnose" aria-labelledby="diagnose-title" data-testid="diagnose-view">
      <h3 id="diagnose-title">Diagnosis</h3>
      <p class="muted small">
        <code>diagnose()</code> of the widget shown here, in this browser.
      </p>
      <button type="button" onClick={run} disabled={running}>
        {running ? 'Diagnosing…' : 'Diagnose'}
      </button>
      {failure && (
        <p class="error small" role="alert">
          {failure}
        </p>
      )}
      {report && (
        <>
          <dl class="raw" data-testid="diagnose-parts">
            {Object.entries(parts).map(([part, value]) => (
              <div key={part}>
                <dt class="mono">{part}</dt>
                <dd class="mono">{JSON.stringify(value)}</dd>
              </div>
            ))}
          </dl>
          <ol class="rows" aria-label="Decisions" data-testid="diagnose-decisions">
            {decisions.map((decision) => (
              <li key={`${decision.at}-${decision.code}-${String(decision.id ?? '')}`} class="row">
                <span class="tag mono">{decision.code}</span>
                <span class="muted small">{decision.at}</span>
                <span class="muted small mono">
                  docs/TROUBLESHOOTING.md#{sectionOf(decision.code)}
                </span>
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  )
}

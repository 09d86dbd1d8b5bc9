// The two referrer widgets side by side: the script tag in a frame of this origin (a fresh page,
// with its own window.Referral, for each configuration) and the Preact component in this page.
import { useStore } from '@nanostores/preact'
import { atom } from 'nanostores'
import { useEffect, useRef, useState } from 'preact/hooks'
import { ReferralWidget, type ReferralWidgetProps } from '../../src/components.tsx'
import type { CampaignState } from '../../src/core/stores.ts'
import type { ReferralInternals as Referral } from '../../src/core/types.ts'
import { acquireReferral, releaseReferral } from '../../src/ui/registry.ts'
import { describe, EVENT_NAMES } from '../frames/protocol.ts'
import { DiagnosePanel } from './diagnose-panel.tsx'
import { errorText } from './format.ts'
import {
  $frameHeights,
  $frames,
  $pageRequests,
  $shareUrl,
  logEvent,
  pageNetwork,
  registerWindow,
} from './hub.ts'

const STATE_NOTES: Record<string, string> = {
  loading: 'loading',
  ready: 'ready',
  empty: 'empty: no active campaign (the panel renders nothing)',
  error: 'error: the campaign could not be loaded',
  refused: 'not mounted: the key is refused',
  none: 'not mounted yet',
}

/** Stands in for a core's campaign store while there is none. */
const $noCore = atom<CampaignState>({ status: 'loading' })

function Facts(props: {
  requests: number | undefined
  state: string | null | undefined
  testId: string
}) {
  return (
    <p class="facts" data-testid={props.testId}>
      <span>
        Requests to /v1:{' '}
        <strong data-testid={`${props.testId}-requests`}>{props.requests ?? '…'}</strong>
      </span>
      <span>
        Panel: <strong>{props.state ? (STATE_NOTES[props.state] ?? props.state) : '…'}</strong>
      </span>
    </p>
  )
}

export function ScriptTagColumn(props: { src: string | null; snippet: string }) {
  const frame = useRef<HTMLIFrameElement>(null)
  const frames = useStore($frames)
  const heights = useStore($frameHeights)
  useEffect(() => registerWindow('referrer', () => frame.current?.contentWindow), [])
  useEffect(() => {
    $frames.setKey('referrer', undefined)
    $frameHeights.setKey('referrer', undefined)
  }, [props.src])
  const current = props.src ? new URL(props.src, location.href).href : null
  const state = frames.referrer?.href === current ? frames.referrer : undefined
  return (
    <article class="card widget-column" aria-labelledby="script-tag-title">
      <h3 id="script-tag-title">Script tag</h3>
      <p class="muted small">
        <code>/referral-widget.js</code> with data- attributes, in a page of this origin; each
        change of settings loads a fresh page.
      </p>
      {state?.refusal && (
        <p class="refusal" role="alert" data-testid="refusal-script">
          Refused: {state.refusal}
        </p>
      )}
      {props.src ? (
        <iframe
          ref={frame}
          class="widget-frame"
          title="Script-tag widget"
          src={props.src}
          style={{ height: `${Math.max(heights.referrer ?? 240, 80)}px` }}
        />
      ) : (
        <p class="muted">Reloading…</p>
      )}
      <Facts
        requests={state?.requests}
        state={state?.refusal ? 'refused' : state?.loaded ? (state.widget ?? 'none') : null}
        testId="facts-script"
      />
      <details>
        <summary>Embed code of this frame</summary>
        <pre class="code">{props.snippet}</pre>
      </details>
    </article>
  )
}

type Options = ReferralWidgetProps & { consent?: 'required' | undefined }

/** The Preact component, sharing its core (one per key) with this column's event listeners. */
export function PreactColumn(props: { options: Options }) {
  const { options } = props
  const [core, setCore] = useState<Referral | null>(null)
  const [refusal, setRefusal] = useState<string | null>(null)
  const [baseline] = useState(() => pageNetwork.apiRequests())
  const requests = Math.max(0, useStore($pageRequests) - baseline)
  const campaign = useStore(core?.$campaign ?? $noCore)

  useEffect(() => {
    let shared: Referral
    try {
      shared = acquireReferral(options)
    } catch (failure) {
      setRefusal(errorText(failure))
      return
    }
    const on = shared.on as (name: string, listener: (payload: unknown) => void) => () => void
    const stops = EVENT_NAMES.map((name) =>
      on(name, (payload) => {
        logEvent('Preact', name, describe(payload))
        const url = (payload as { url?: unknown } | undefined)?.url
        if (name === 'link' && typeof url === 'string') $shareUrl.set(url)
      }),
    )
    // The share link also from the store: a link read from the cache is announced while the
    // core starts, before anyone can listen.
    stops.push(
      shared.$link.subscribe((state) => {
        if (state.status === 'ready') $shareUrl.set(state.link.url)
      }),
    )
    setCore(shared)
    return () => {
      for (const stop of stops) stop()
      releaseReferral(shared)
    }
  }, [])

  return (
    <article class="card widget-column" aria-labelledby="preact-title">
      <h3 id="preact-title">Preact component</h3>
      <p class="muted small">
        <code>&lt;ReferralWidget&gt;</code> from <code>src/components.tsx</code>, rendered by this
        page with <code>apiBase</code> = this origin.
      </p>
      {refusal && (
        <p class="refusal" role="alert" data-testid="refusal-preact">
          Refused: {refusal}
        </p>
      )}
      <ReferralWidget {...options} class="preact-widget" />
      {core && options.consent === 'required' && (
        <div class="consent-row">
          <span class="muted small">Consent (the site’s banner):</span>
          <button type="button" onClick={() => core.consent(true)}>
            Accept
          </button>
          <button type="button" onClick={() => core.consent(false)}>
            Decline
          </button>
        </div>
      )}
      <Facts
        requests={requests}
        state={core ? campaign.status : refusal ? 'refused' : null}
        testId="facts-preact"
      />
      {core && <DiagnosePanel referral={core} />}
    </article>
  )
}

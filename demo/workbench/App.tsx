// The QA workbench: controls on the left, the widgets and the visitor in the middle, the live
// views under them. One column on a phone.
import { useStore } from '@nanostores/preact'
import { useEffect, useMemo, useRef, useState } from 'preact/hooks'
import { demoApi } from './api.ts'
import { CampaignPanel } from './campaign-panel.tsx'
import { ClockPanel } from './clock-panel.tsx'
import { describeFault, FaultPanel } from './fault-panel.tsx'
import { errorText, offsetText } from './format.ts'
import { usePoll } from './hooks.ts'
import {
  $events,
  $frames,
  $notices,
  $offline,
  $shareUrl,
  origins,
  refreshAll,
  sendCommand,
} from './hub.ts'
import { QueuePane } from './queue-view.tsx'
import {
  embedSnippet,
  frameUrl,
  keyChoice,
  landingUrl,
  namespaceOf,
  readSettings,
  type Settings,
  settingsHash,
} from './settings.ts'
import { SettingsPanel } from './settings-panel.tsx'
import { StatsView } from './stats-view.tsx'
import { EventsView, RequestsView } from './stream-views.tsx'
import { UserTokenPanel } from './user-token.tsx'
import { clearedVisitorUrl, VisitorPanel, visitorOrigin } from './visitor.tsx'
import { sideOf } from './visitor-facts.ts'
import { PreactColumn, ScriptTagColumn } from './widgets.tsx'

/** This origin's referral: keys (the script-tag frame and the Preact widget share them). */
function ownStorage(): Array<[string, string]> {
  const entries: Array<[string, string]> = []
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i)
    if (key?.startsWith('referral:')) entries.push([key, localStorage.getItem(key) ?? ''])
  }
  return entries.sort(([a], [b]) => a.localeCompare(b))
}

function clearOwnStorage() {
  for (const [key] of ownStorage()) localStorage.removeItem(key)
}

export function App() {
  const [settings, setSettings] = useState<Settings>(() => readSettings(location.hash))
  const [generation, setGeneration] = useState(1)
  const [resetting, setResetting] = useState(false)
  const [resetOutcome, setResetOutcome] = useState('')
  const [visitorSrc, setVisitorSrc] = useState<string | null>(null)
  const offline = useStore($offline)
  const frames = useStore($frames)
  const scope = keyChoice(settings.key)?.scope ?? null
  const scopeKey = scope ? `${scope.org}/${scope.mode}` : 'none'

  useEffect(() => {
    const hash = settingsHash(settings)
    if (location.hash !== hash) history.replaceState(null, '', hash)
  }, [settings])

  const update = (change: Partial<Settings>) => {
    $shareUrl.set(null)
    setSettings((before) => ({ ...before, ...change }))
  }
  const reload = () => {
    $shareUrl.set(null)
    setGeneration((n) => n + 1)
  }

  // --- what the service says, refreshed by itself ---------------------------------------------
  const clock = usePoll(() => demoApi.clock(), 1000, [])
  const fault = usePoll(() => demoApi.fault(), 1000, [])
  const requests = usePoll(() => demoApi.requests(), 1000, [])
  const campaigns = usePoll(scope ? () => demoApi.campaigns(scope) : null, 2000, [scopeKey])
  const list = campaigns.data?.data
  const acting = settings.campaign
    ? list?.find((campaign) => campaign.id === settings.campaign)
    : list?.find((campaign) => campaign.status === 'active')
  const detail = usePoll(scope && acting ? () => demoApi.campaign(scope, acting.id) : null, 1000, [
    scopeKey,
    acting?.id,
  ])

  // --- the widgets' configuration -------------------------------------------------------------
  const landing = landingUrl(visitorOrigin, settings)
  const src = resetting ? null : frameUrl(settings, landing, generation)
  // The demo user's token, once minted (UserTokenPanel): memory only, for the Preact widget.
  const [userToken, setUserToken] = useState<string | null>(null)
  const baseOptions = useMemo(
    () => ({
      publicKey: settings.key,
      apiBase: location.origin,
      campaignId: settings.campaign || undefined,
      userId: settings.user || undefined,
      landingUrl: landing,
      locale: settings.locale || undefined,
      theme: settings.theme,
      consent: settings.consentRequired ? ('required' as const) : undefined,
    }),
    [settings, landing],
  )
  // The token is followed as a prop (identify with it), not a reason to build a new widget.
  const preactKey = `${generation}|${JSON.stringify(baseOptions)}`
  const preactOptions = useMemo(
    () => ({ ...baseOptions, userToken: userToken ?? undefined }),
    [baseOptions, userToken],
  )
  const namespace = namespaceOf(settings.key)
  const [storage, setStorage] = useState(ownStorage)
  useEffect(() => {
    const timer = setInterval(() => setStorage(ownStorage()), 500)
    return () => clearInterval(timer)
  }, [])

  const resetAll = async () => {
    setResetting(true)
    setResetOutcome('Resetting…')
    try {
      // The widgets go first, so none of them writes or sends during the reset.
      await new Promise((resolve) => setTimeout(resolve, 50))
      await demoApi.reset()
      clearOwnStorage()
      sendCommand('visitor', { kind: 'forget' })
      $frames.set({})
      $notices.set({})
      $events.set([])
      $shareUrl.set(null)
      setVisitorSrc((current) => (current === null ? null : clearedVisitorUrl()))
      setSettings((before) => ({ ...before, campaign: '' }))
      setStorage(ownStorage())
      setResetOutcome(
        'Test data reset: seeded campaigns, no links, events, faults or logged requests; this page’s and the visitor’s referral: keys erased.',
      )
    } catch (failure) {
      setResetOutcome(`Reset failed: ${errorText(failure)}`)
    } finally {
      setGeneration((n) => n + 1)
      setResetting(false)
      refreshAll()
    }
  }

  // The sticky controls start below the sticky header, however tall it is.
  const header = useRef<HTMLElement>(null)
  useEffect(() => {
    const element = header.current
    if (!element) return
    const observer = new ResizeObserver(() =>
      document.documentElement.style.setProperty('--header-height', `${element.offsetHeight}px`),
    )
    observer.observe(element)
    return () => observer.disconnect()
  }, [])
  // The reset's outcome stays a while, then leaves the header.
  useEffect(() => {
    if (!resetOutcome || resetting) return
    const timer = setTimeout(() => setResetOutcome(''), 8000)
    return () => clearTimeout(timer)
  }, [resetOutcome, resetting])

  const serviceNow = clock.data ? Date.parse(clock.data.now) : null
  const visitorNamespace = namespace
  return (
    <>
      <header class="topbar" ref={header}>
        <h1>Referral widget · QA workbench</h1>
        <div class="topbar-facts">
          <span>
            Service clock:{' '}
            <strong class="mono">
              {serviceNow === null ? '…' : new Date(serviceNow).toISOString().slice(0, 19)}
            </strong>
            {serviceNow !== null && Math.abs(serviceNow - Date.now()) > 60_000 && (
              <span class="badge warn"> {offsetText(serviceNow - Date.now())}</span>
            )}
          </span>
          <span>
            Fault: <strong data-testid="fault-badge">{describeFault(fault.data?.fault)}</strong>
          </span>
          {offline && <span class="badge warn">widgets offline</span>}
          <button type="button" class="danger" disabled={resetting} onClick={resetAll}>
            Reset test data
          </button>
        </div>
        <p class="outcome small" role="status" data-testid="reset-outcome">
          {resetOutcome}
        </p>
      </header>
      <main class="workbench">
        <aside class="controls" aria-label="Controls">
          <SettingsPanel settings={settings} update={update} campaigns={list} reload={reload} />
          <CampaignPanel
            scope={scope}
            acting={acting}
            detail={detail.data}
            changed={(created) => {
              if (created) update({ campaign: created })
              reload()
            }}
          />
          <UserTokenPanel
            scope={scope}
            publicKey={settings.key}
            userId={settings.user}
            campaign={acting}
            onToken={setUserToken}
          />
          <FaultPanel fault={fault.data?.fault} liveKey={scope?.mode === 'live'} />
          <ClockPanel now={clock.data?.now} window={detail.data?.attributionWindow} />
        </aside>
        <section class="widgets" aria-labelledby="widgets-title">
          <h2 id="widgets-title" class="section-title">
            Referrer widgets
          </h2>
          <p class="muted small intro">
            Both live against the local service on <code>{origins.main}</code>, with the chosen
            widget settings; so are the visitor and every view below.
          </p>
          <div class="columns">
            <ScriptTagColumn src={src} snippet={embedSnippet(settings, landing)} />
            {resetting ? (
              <article class="card widget-column">
                <p class="muted">Reloading…</p>
              </article>
            ) : (
              <PreactColumn key={preactKey} options={preactOptions} />
            )}
          </div>
        </section>
        <div class="visitor-area">
          <VisitorPanel
            src={visitorSrc}
            onOpen={setVisitorSrc}
            scope={scope}
            currency={detail.data?.referredReward.currency}
          />
        </div>
        <div class="views">
          <StatsView
            campaign={detail.data}
            error={detail.error ?? campaigns.error}
            note={
              scope
                ? `No campaign to show for ${scope.org} ${scope.mode} mode.`
                : 'The chosen key is refused: no organization, no stats.'
            }
          />
          <section class="card view" aria-labelledby="queue-title" data-testid="queue-view">
            <h2 id="queue-title">Widget queue (localStorage)</h2>
            <QueuePane
              id="referrer"
              title="Referrer side"
              subtitle={`This origin: the script-tag frame and the Preact widget share ${namespace ?? 'no namespace (refused key)'}.`}
              entries={storage}
              namespace={namespace}
              offline={offline}
            />
            <QueuePane
              id="visitor"
              title="Visitor"
              subtitle={
                frames.visitor
                  ? `${sideOf(frames.visitor, origins).origin}, as the visitor page reports it (${Math.max(0, Math.round((Date.now() - frames.visitor.receivedAt) / 1000))} s ago).`
                  : 'No visitor page open.'
              }
              entries={frames.visitor ? frames.visitor.storage : null}
              namespace={visitorNamespace}
              offline={frames.visitor?.offline ?? offline}
            />
          </section>
          <EventsView />
          <RequestsView requests={requests.data?.requests} error={requests.error} />
        </div>
      </main>
    </>
  )
}

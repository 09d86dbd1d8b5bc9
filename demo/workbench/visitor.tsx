// Visitor simulation: the referrer's share link opened by a new visitor on the shop, the demo's
// second origin (a localStorage of its own), in a frame here or in a new tab, or by the referrer
// in their own browser (this page's origin: no click counted); the hand-off to the app on the
// other host name; a signup; and a purchase the shop's backend records.
import { useStore } from '@nanostores/preact'
import { useEffect, useRef, useState } from 'preact/hooks'
import { APP_PATH, SHOP_PATH } from '../frames/handoff.ts'
import type { Scope } from './api.ts'
import {
  $events,
  $frameHeights,
  $frames,
  $notices,
  $shareUrl,
  origins,
  registerWindow,
  sendCommand,
} from './hub.ts'
import { PurchaseForm } from './purchase-form.tsx'
import {
  handoffVerdict,
  heardSelfReferral,
  ownArrivalVerdict,
  referrerArrivalUrl,
  sideOf,
  type VisitorSide,
} from './visitor-facts.ts'

export const visitorOrigin = origins.visitor ?? origins.main

let opened = 0

/**
 * The visitor page with every referral: key of the shop's origin erased first (and of the
 * app's before it), then `then`.
 */
export function clearedVisitorUrl(then?: string): string {
  const url = new URL(SHOP_PATH, visitorOrigin)
  url.searchParams.set('clear', '1')
  // A new address each time, so the frame loads again even for the same link.
  url.searchParams.set('n', String(++opened))
  if (then) url.searchParams.set('then', then)
  if (!origins.app) return url.toString()
  const app = new URL(APP_PATH, origins.app)
  app.searchParams.set('clear', '1')
  app.searchParams.set('then', url.toString())
  return app.toString()
}

const newFriend = () => `friend_${Math.random().toString(36).slice(2, 7)}`

function Facts(props: {
  side: VisitorSide
  shop: VisitorSide | null
  banner: boolean
  requests: number
}) {
  const { side, shop } = props
  const verdict = side.site === 'app' ? handoffVerdict(shop, side) : null
  return (
    <>
      <p class="facts" data-testid="visitor-facts">
        <span>
          Page: <strong data-testid="visitor-site">{side.site}</strong>{' '}
          <span class="mono">{side.origin}</span>
        </span>
        <span>
          Attribution: <strong data-testid="visitor-code">{side.code ?? 'none'}</strong>
        </span>
        <span>
          Visitor id: <strong data-testid="visitor-id">{side.visitorId ?? 'none'}</strong>
        </span>
        <span>
          Banner: <strong>{props.banner ? 'shown' : 'not shown'}</strong>
        </span>
        <span>
          Requests to /v1: <strong>{props.requests}</strong>
        </span>
      </p>
      {verdict && (
        <p
          class={verdict.adopted ? 'handoff-verdict ok' : 'handoff-verdict'}
          data-testid="handoff-verdict"
        >
          Hand-off: {verdict.text}
        </p>
      )}
    </>
  )
}

export function VisitorPanel(props: {
  src: string | null
  onOpen: (src: string) => void
  scope: Scope | null
  /** The acting campaign's currency, the purchase's default one. */
  currency: string | undefined
}) {
  const shareUrl = useStore($shareUrl)
  const frames = useStore($frames)
  const heights = useStore($frameHeights)
  const notices = useStore($notices)
  const events = useStore($events)
  const frame = useRef<HTMLIFrameElement>(null)
  const tab = useRef<Window | null>(null)
  const [friend, setFriend] = useState(newFriend)
  const [buyer, setBuyer] = useState<string | null>(null)
  const [message, setMessage] = useState('')
  /** The visitor as the shop's page last reported it, for the app's page to be checked against. */
  const [shop, setShop] = useState<VisitorSide | null>(null)
  /** When the share link was opened in the referrer's own browser; null for a visitor. */
  const [ownSince, setOwnSince] = useState<number | null>(null)

  useEffect(() => {
    const stopFrame = registerWindow('visitor', () => frame.current?.contentWindow)
    const stopTab = registerWindow('visitor', () => tab.current)
    return () => {
      stopFrame()
      stopTab()
    }
  }, [])
  useEffect(() => {
    if (notices.visitor) setMessage(notices.visitor)
  }, [notices.visitor])

  const state = frames.visitor
  const side = state ? sideOf(state, origins) : null
  useEffect(() => {
    if (side?.site === 'shop') setShop(side)
  }, [side?.site, side?.code, side?.visitorId])
  const own =
    ownSince === null ? null : ownArrivalVerdict(heardSelfReferral(events, ownSince), side)
  const canSignUp = Boolean(state?.loaded && !state.refusal)
  const tabOpen = tab.current !== null && !tab.current.closed

  const openHere = () => {
    if (!shareUrl) return
    $frames.setKey('visitor', undefined)
    setShop(null)
    setOwnSince(null)
    props.onOpen(clearedVisitorUrl(shareUrl))
    setMessage(
      'Opened the share link below as a new visitor (the referral: keys of the shop’s and the app’s origins erased first).',
    )
  }
  const openAsReferrer = () => {
    if (!shareUrl) return
    $frames.setKey('visitor', undefined)
    setShop(null)
    setOwnSince(Date.now())
    props.onOpen(referrerArrivalUrl(shareUrl, origins.main, ++opened))
    setMessage(
      'Opened the share link in the referrer’s own browser: this page’s origin, the storage of the referrer’s panel, nothing erased. The widget knows the link as its own.',
    )
  }
  const openTab = () => {
    if (!shareUrl) return
    setShop(null)
    setOwnSince(null)
    tab.current = window.open(clearedVisitorUrl(shareUrl), '_blank')
    setMessage(
      tab.current
        ? 'Opened in a new tab, as a new visitor: sign it up from here. It shares its origin’s storage with the frame here.'
        : 'The browser blocked the new tab: allow pop-ups for this page.',
    )
  }
  const signUp = (event: Event) => {
    event.preventDefault()
    const userId = friend.trim()
    if (!userId) return
    sendCommand('visitor', { kind: 'signup', userId })
    setBuyer(userId)
    setFriend(newFriend())
  }
  const clear = () => {
    sendCommand('visitor', { kind: 'forget' })
    $frames.setKey('visitor', undefined)
    setShop(null)
    setOwnSince(null)
    props.onOpen(clearedVisitorUrl())
    setMessage(
      'Visitor cleared: every referral: key of the shop’s and the app’s origins is erased.',
    )
  }

  return (
    <section class="card" aria-labelledby="visitor-title" data-testid="visitor-panel">
      <h2 id="visitor-title">Visitor simulation</h2>
      <p class="muted small">
        The share link lands on the shop, <code>{visitorOrigin}/demo/visitor.html</code>
        {origins.visitor
          ? ', a second origin of the dev server: the visitor’s storage is not the referrer’s.'
          : '. No second origin is available, so the visitor shares this page’s storage.'}
        {origins.app
          ? ` Its link to the app on ${origins.app}, another site to the browser, carries the referral in ref_handoff: the app adopts it without a second click.`
          : ' The hand-off to another domain needs the page opened on localhost or 127.0.0.1.'}
      </p>
      <div class="field">
        <label for="share-link">Current share link</label>
        <input
          id="share-link"
          class="mono"
          readOnly
          value={shareUrl ?? ''}
          placeholder="The widget’s link, once a user is signed in with a pk_ key"
        />
      </div>
      <div class="buttons">
        <button type="button" class="primary" disabled={!shareUrl} onClick={openHere}>
          Open as a new visitor (frame)
        </button>
        <button type="button" disabled={!shareUrl} onClick={openTab}>
          Open as a new visitor (new tab)
        </button>
        <button type="button" disabled={!shareUrl} onClick={openAsReferrer}>
          Open as the referrer (frame)
        </button>
        <button type="button" class="danger" onClick={clear}>
          Clear the visitor
        </button>
      </div>
      <form class="inline-form" onSubmit={signUp}>
        <label for="friend-id">Visitor signs up as</label>
        <input
          id="friend-id"
          class="mono"
          value={friend}
          onInput={(event) => setFriend(event.currentTarget.value)}
          autocomplete="off"
          spellcheck={false}
        />
        <button type="submit" disabled={!canSignUp && !tabOpen}>
          Sign the visitor up
        </button>
      </form>
      <p class="muted small" role="status" data-testid="visitor-message">
        {message}
      </p>
      {own && (
        <p
          class={own.own ? 'handoff-verdict ok' : 'handoff-verdict'}
          data-testid="own-link-verdict"
        >
          As the referrer: {own.text}
        </p>
      )}
      {state && side && (
        <Facts
          side={side}
          shop={shop}
          banner={state.widget === 'banner'}
          requests={state.requests}
        />
      )}
      {props.src ? (
        <iframe
          ref={frame}
          class="widget-frame visitor-frame"
          title="Visitor page"
          src={props.src}
          style={{ height: `${Math.max(heights.visitor ?? 200, 120)}px` }}
        />
      ) : (
        <p class="placeholder" data-testid="visitor-placeholder">
          {shareUrl
            ? 'No visitor yet: open the share link above as a new visitor. The visitor page shows the banner a referred visitor sees.'
            : 'No visitor yet: sign a user in with a pk_ key (Widget settings); their share link appears above, to open as a new visitor.'}
        </p>
      )}
      {props.scope && <PurchaseForm scope={props.scope} buyer={buyer} currency={props.currency} />}
    </section>
  )
}

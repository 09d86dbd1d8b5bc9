// The page share links point to: the shop's landing page, on the demo's second origin (its own
// localStorage). A referred visitor arrives here with ?ref=CODE, sees the banner, and signs up
// (from the demo page, or here when the page is opened by hand), or follows the link to the app
// on the other domain, which carries the referral in ref_handoff (data-outbound). `?clear=1`
// erases every referral: key of this origin first (a new visitor), then goes on to `then` if
// given.
import { startBridge } from './bridge.ts'
import { showFrameStatus } from './frame-status.ts'
import { appPageUrl, SHOP_PATH } from './handoff.ts'
import { demoOrigins } from './protocol.ts'
import {
  clearVisitor,
  erasedText,
  nextPage,
  showEmpty,
  showOrigin,
  startVisitorWidget,
} from './visitor-page.ts'

const params = new URLSearchParams(location.search)
const origins = demoOrigins()

/** The link to the app on the other domain, explained; the host data-outbound names. */
function showHandoff(app: string): string {
  const box = document.querySelector<HTMLElement>('[data-testid="handoff"]')
  const link = document.querySelector<HTMLAnchorElement>('[data-testid="handoff-link"]')
  const outbound = document.querySelector('[data-testid="handoff-outbound"]')
  const host = new URL(app).hostname
  if (box && link && outbound) {
    link.href = appPageUrl(app, params)
    link.textContent = `Continue to the app on ${app}`
    outbound.textContent = `data-outbound="${host}"`
    box.hidden = false
  }
  return host
}

showOrigin()
const then = nextPage(params.get('then'), [location.origin + SHOP_PATH], location.href)
let removed: number | null = 0
if (params.has('clear')) removed = clearVisitor()
if (then) {
  location.replace(then)
} else {
  const bridge = startBridge('visitor')
  showFrameStatus(bridge)
  if (params.has('clear')) {
    showEmpty(`No visitor: ${erasedText(removed)}. Open the share link to arrive as a new visitor.`)
  } else if (!params.get('key')) {
    showEmpty(
      'No visitor yet. Open the share link from the demo page to arrive here as a referred visitor.',
    )
  } else {
    const outbound = origins.app ? showHandoff(origins.app) : undefined
    await startVisitorWidget(bridge, params, { outbound })
  }
}

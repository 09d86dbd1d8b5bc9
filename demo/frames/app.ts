// The app's sign-up page, on the demo's other host name: another site to the browser, whose
// storage the shop's never reaches. The visitor arrives from the shop's link with ref_handoff;
// the widget here (the same key, no data-outbound) adopts it, and this page says what it made of
// it. `?clear=1` erases this origin's referral: keys, then goes on to the shop's `then`.
import { handoffArrival } from '../../src/api/handoff.ts'
import { startBridge } from './bridge.ts'
import { showFrameStatus } from './frame-status.ts'
import { describeArrival, SHOP_PATH } from './handoff.ts'
import { heldReferral, started } from './page-widget.ts'
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
const origins = demoOrigins(true)
// Read before the widget takes it out of the address bar.
const arrival = handoffArrival(location.href, Date.now())

showOrigin()
const shop = origins.visitor ? [origins.visitor + SHOP_PATH] : []
const then = nextPage(params.get('then'), shop, location.href)
let removed: number | null = 0
if (params.has('clear')) removed = clearVisitor()
if (then) {
  location.replace(then)
} else {
  const bridge = startBridge('visitor', { onApp: true })
  showFrameStatus(bridge)
  if (params.has('clear')) {
    showEmpty(`No visitor: ${erasedText(removed)}.`)
  } else if (!params.get('key')) {
    showEmpty('No visitor yet. Follow the link on the shop’s page to arrive here.')
  } else {
    const line = document.querySelector<HTMLElement>('[data-testid="handoff-arrival"]')
    const render = () => {
      if (line) line.textContent = describeArrival(arrival, started() ? heldReferral() : null)
    }
    bridge.onUpdate(render)
    render()
    await startVisitorWidget(bridge, params)
  }
}

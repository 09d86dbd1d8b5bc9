// The script-tag referrer page shown in the demo's frame: /referral-widget.js with the data-
// attributes the demo page puts in this page's address, so each configuration is a fresh page
// with its own window.Referral.
import { startBridge } from './bridge.ts'
import { showConsentAndLocale, showFrameStatus } from './frame-status.ts'

const params = new URLSearchParams(location.search)
const param = (name: string) => params.get(name) ?? undefined

const bridge = startBridge('referrer')

showFrameStatus(bridge, { refusalShownAbove: true })

showConsentAndLocale(bridge, params)
const locale = param('locale')

await bridge.ready
bridge.loadWidget({
  key: param('key'),
  campaign: param('campaign'),
  'user-id': param('user'),
  locale,
  theme: param('theme'),
  consent: param('consent'),
  'landing-url': param('landing'),
})

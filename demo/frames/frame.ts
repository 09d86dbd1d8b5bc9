// The script-tag referrer page shown in the demo's frame: /referral-widget.js with the data-
// attributes the demo page puts in this page's address, so each configuration is a fresh page
// with its own window.Referral.
import { showFrameStatus, startBridge } from './bridge.ts'

const params = new URLSearchParams(location.search)
const param = (name: string) => params.get(name) ?? undefined

const consentBox = document.querySelector<HTMLElement>('[data-testid="frame-consent"]')

const bridge = startBridge('referrer')

showFrameStatus(bridge)

if (param('consent') === 'required' && consentBox) {
  consentBox.hidden = false
  for (const button of consentBox.querySelectorAll<HTMLButtonElement>('button[data-consent]')) {
    button.addEventListener('click', () =>
      bridge.call('consent', button.dataset.consent === 'true'),
    )
  }
}
const locale = param('locale')
if (locale) document.documentElement.lang = locale

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

// The script-tag referrer page shown in the demo's frame: /referral-widget.js with the data-
// attributes the demo page puts in this page's address, so each configuration is a fresh page
// with its own window.Referral.
import { startBridge } from './bridge.ts'

const params = new URLSearchParams(location.search)
const param = (name: string) => params.get(name) ?? undefined

const refusalBox = document.querySelector<HTMLElement>('[data-testid="frame-refusal"]')
const meta = document.querySelector<HTMLElement>('[data-testid="frame-meta"]')
const consentBox = document.querySelector<HTMLElement>('[data-testid="frame-consent"]')

const bridge = startBridge('referrer')

function render() {
  const refusal = bridge.refusal()
  if (refusalBox) {
    refusalBox.hidden = refusal === null
    refusalBox.textContent = refusal === null ? '' : `Refused: ${refusal}`
  }
  if (meta) {
    const count = bridge.apiRequests()
    meta.textContent = `${count} request${count === 1 ? '' : 's'} to /v1 from this page${
      bridge.isOffline() ? ' · offline (simulated)' : ''
    }`
  }
}
bridge.onUpdate(render)
render()

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

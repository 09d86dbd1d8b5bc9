// What every demo widget page shows of itself: its status line and refusal box, its consent
// buttons, and its language.
import type { Bridge } from './bridge.ts'

/**
 * Keeps a frame's status line and refusal box in step with its bridge. `refusalShownAbove`: a
 * demo page that drives this frame shows the refusal above it, so the box stays hidden then
 * (said twice, it reads as two refusals).
 */
export function showFrameStatus(bridge: Bridge, { refusalShownAbove = false } = {}) {
  const refusalBox = document.querySelector<HTMLElement>('[data-testid="frame-refusal"]')
  const meta = document.querySelector<HTMLElement>('[data-testid="frame-meta"]')
  const render = () => {
    const refusal = bridge.refusal()
    if (refusalBox) {
      refusalBox.hidden = refusal === null || (refusalShownAbove && bridge.driven())
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
}

/** The consent buttons of a frame opened with `consent=required`, and the page's language. */
export function showConsentAndLocale(bridge: Bridge, params: URLSearchParams) {
  const consentBox = document.querySelector<HTMLElement>('[data-testid="frame-consent"]')
  if (params.get('consent') === 'required' && consentBox) {
    consentBox.hidden = false
    for (const button of consentBox.querySelectorAll<HTMLButtonElement>('button[data-consent]')) {
      button.addEventListener('click', () =>
        bridge.call('consent', button.dataset.consent === 'true'),
      )
    }
  }
  const locale = params.get('locale')
  if (locale) document.documentElement.lang = locale
}

// What the visitor's two pages share, the shop's landing page (visitor.html) and the app's sign-up
// page on the other domain (app.html): `?clear=1` erasing this origin's referral: keys (a new
// visitor), `then` going on to the next page, and a widget with a sign-up form for a page opened
// by hand (driven by the demo page, the visitor signs up from the demo page's one field).
import type { Bridge } from './bridge.ts'
import { showConsentAndLocale } from './frame-status.ts'

const $ = <T extends HTMLElement>(testId: string) =>
  document.querySelector<T>(`[data-testid="${testId}"]`)

/** `raw` when it is one of `pages` (origin and path), with any query; otherwise null. */
export function nextPage(raw: string | null, pages: readonly string[], base: string) {
  if (!raw) return null
  try {
    const url = new URL(raw, base)
    return pages.includes(url.origin + url.pathname) ? url.href : null
  } catch {
    return null
  }
}

/**
 * Erases every referral: key of this origin; how many there were, or null when this frame has no
 * storage (a browser that blocks a cross-site frame's storage throws on the first touch).
 */
export function clearVisitor(): number | null {
  try {
    const keys: string[] = []
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i)
      if (key?.startsWith('referral:')) keys.push(key)
    }
    for (const key of keys) localStorage.removeItem(key)
    return keys.length
  } catch {
    return null
  }
}

export function showOrigin() {
  const origin = $('visitor-origin')
  if (origin) origin.textContent = location.origin
}

/** The page's words when it has no visitor: just cleared, or opened without a key. */
export function showEmpty(text: string) {
  const empty = $('visitor-empty')
  if (!empty) return
  empty.hidden = false
  empty.textContent = text
}

export const erasedText = (removed: number | null) =>
  removed === null
    ? 'this frame has no storage (the browser blocks it in a frame of another site), nothing to erase'
    : `${removed} referral: key${removed === 1 ? '' : 's'} erased on this origin`

/**
 * The sign-up form (for a page opened by hand), the consent buttons, then the widget with the
 * page's settings from its address and `extra` data- attributes.
 */
export async function startVisitorWidget(
  bridge: Bridge,
  params: URLSearchParams,
  extra: Record<string, string | undefined> = {},
) {
  const param = (name: string) => params.get(name) || undefined
  const status = $('visitor-status')
  const say = (text: string) => {
    if (status) status.textContent = text
  }
  const tools = $('visitor-tools')
  const input = document.querySelector<HTMLInputElement>('#visitor-user')
  const suggest = () => {
    if (input) input.value = `friend_${Math.random().toString(36).slice(2, 7)}`
  }
  suggest()
  $<HTMLFormElement>('visitor-signup')?.addEventListener('submit', (event) => {
    event.preventDefault()
    const userId = input?.value.trim() ?? ''
    const ok = bridge.call('track', 'signup', { userId })
    say(
      ok === false
        ? `Signup refused: see the console messages.`
        : `Signed up as ${userId}: Referral('track', 'signup', { userId }) called.`,
    )
    if (ok !== false) suggest()
  })
  $('visitor-forget')?.addEventListener('click', () => {
    bridge.call('forget')
    say('Referral.forget(): this visitor’s referral: keys are erased.')
  })
  showConsentAndLocale(bridge, params)
  // Driven by the demo page, the visitor signs up from its one field ("Visitor signs up as");
  // a second field here, with another suggested name, would be a second way to do the same.
  const driven = await bridge.ready
  if (tools) tools.hidden = driven
  bridge.loadWidget({
    key: param('key'),
    campaign: param('campaign'),
    locale: param('locale'),
    theme: param('theme'),
    consent: param('consent'),
    ...extra,
  })
}

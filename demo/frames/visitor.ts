// The page share links point to, on the demo's second origin (its own localStorage): a referred
// visitor arrives here with ?ref=CODE, sees the banner, and signs up (from the demo page, or
// here when the page is opened by hand). `?clear=1` erases every referral: key of this origin
// first (a new visitor), then goes on to `then` if given.
import { showConsentAndLocale, showFrameStatus, startBridge } from './bridge.ts'

const params = new URLSearchParams(location.search)
const param = (name: string) => params.get(name) || undefined
const $ = <T extends HTMLElement>(testId: string) =>
  document.querySelector<T>(`[data-testid="${testId}"]`)

/** Only this page, on this origin, is a place to go on to. */
function nextPage(raw: string | undefined): string | null {
  if (!raw) return null
  try {
    const url = new URL(raw, location.href)
    return url.origin === location.origin && url.pathname === location.pathname ? url.href : null
  } catch {
    return null
  }
}

function clearVisitor(): number {
  const keys: string[] = []
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i)
    if (key?.startsWith('referral:')) keys.push(key)
  }
  for (const key of keys) localStorage.removeItem(key)
  return keys.length
}

const origin = $('visitor-origin')
if (origin) origin.textContent = location.origin

const then = nextPage(param('then'))
let removed = 0
if (params.has('clear')) removed = clearVisitor()
if (then) {
  location.replace(then)
} else {
  const bridge = startBridge('visitor')
  const status = $('visitor-status')
  const say = (text: string) => {
    if (status) status.textContent = text
  }
  showFrameStatus(bridge)

  const key = param('key')
  if (params.has('clear') || !key) {
    const empty = $('visitor-empty')
    if (empty) {
      empty.hidden = false
      empty.textContent = params.has('clear')
        ? `No visitor: ${removed} referral: key${removed === 1 ? '' : 's'} erased on this origin. Open the share link to arrive as a new visitor.`
        : 'No visitor yet. Open the share link from the demo page to arrive here as a referred visitor.'
    }
  } else {
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
    const locale = param('locale')
    // Driven by the demo page, the visitor signs up from its one field ("Visitor signs up as");
    // a second field here, with another suggested name, would be a second way to do the same.
    const driven = await bridge.ready
    if (tools) tools.hidden = driven
    bridge.loadWidget({
      key,
      campaign: param('campaign'),
      locale,
      theme: param('theme'),
      consent: param('consent'),
    })
  }
}

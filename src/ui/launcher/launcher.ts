// The launcher: a floating button (`data-part="launcher"`) in a shadow root of its own, fixed at
// the bottom corner (`bottom-right`, or `bottom-left`; the mirrored corner on a right-to-left
// page), above the page's content and under its modals (z-index 1000, or
// `--referral-launcher-z-index`), clear of a fixed bottom bar (`--referral-launcher-offset`). It
// takes no room in the page, so nothing shifts when it comes, and it comes back when the page
// swaps its body (Turbo, htmx). While the page's focused element lies under it, it steps aside
// (WCAG 2.4.11, focus not obscured). Plain DOM, built element by element (no markup parsed: Trusted
// Types pages take it as it is): it is most of the launcher file, which a signed-in page
// downloads before anything else of the panel.
import { adopt } from '../adopt-styles.ts'

export type LauncherPosition = 'bottom-right' | 'bottom-left'

const css = `
:host { all: initial; }
button {
  position: fixed;
  z-index: var(--referral-launcher-z-index, 1000);
  bottom: calc(16px + var(--referral-launcher-offset, 0px));
  display: inline-flex;
  align-items: center;
  gap: 8px;
  max-width: min(280px, calc(100vw - 32px));
  min-height: 48px;
  padding: 0 18px;
  border: 2px solid var(--referral-on-accent, #fff);
  border-radius: 999px;
  background: var(--referral-accent, #3446c4);
  color: var(--referral-on-accent, #fff);
  box-shadow: 0 4px 16px rgb(0 0 0 / 0.25);
  font: 600 15px/1.2 var(--referral-font, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif);
  cursor: pointer;
}
.end { inset-inline-end: 16px; }
.start { inset-inline-start: 16px; }
span { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
button:focus-visible { outline: 3px solid var(--referral-accent, #3446c4); outline-offset: 3px; }
svg { flex: none; width: 20px; height: 20px; }
.away { visibility: hidden; }
`

/** A gift (the referral's reward), drawn in the button's own colour. */
function icon(): SVGElement {
  const svg = 'http://www.w3.org/2000/svg'
  const image = document.createElementNS(svg, 'svg')
  const path = document.createElementNS(svg, 'path')
  for (const [name, value] of [
    ['viewBox', '0 0 24 24'],
    ['aria-hidden', 'true'],
    ['fill', 'none'],
    ['stroke', 'currentColor'],
    ['stroke-width', '2'],
  ])
    image.setAttribute(name as string, value as string)
  path.setAttribute(
    'd',
    'M20 12v9H4v-9M2 7h20v5H2zM12 21V7M12 7H7.5a2.5 2.5 0 1 1 0-5C11 2 12 7 12 7zM12 7h4.5a2.5 2.5 0 1 0 0-5C13 2 12 7 12 7z',
  )
  image.append(path)
  return image
}

export interface Launcher {
  /** Its accessible (and visible) name. */
  name(text: string): void
  remove(): void
}

/**
 * Puts the launcher on the page. `intent`: the pointer is over it, it has the focus or a touch
 * began; `activate`: clicked (or Enter, Space), with the button to give the focus back to.
 */
export function createLauncher(
  position: LauncherPosition,
  on: { intent(): void; activate(button: HTMLButtonElement): void },
): Launcher {
  const host = document.createElement('div')
  host.setAttribute('data-referral-launcher', '')
  const root = host.attachShadow({ mode: 'open' })
  adopt(root, css)
  const button = document.createElement('button')
  button.type = 'button'
  button.setAttribute('data-part', 'launcher')
  // The page's direction, which the host's reset style does not inherit: the corner mirrors.
  button.dir = getComputedStyle(document.documentElement).direction === 'rtl' ? 'rtl' : 'ltr'
  button.className = position === 'bottom-left' ? 'start' : 'end'
  const label = document.createElement('span')
  button.append(icon(), label)
  for (const type of ['pointerenter', 'focus', 'touchstart'])
    button.addEventListener(type, on.intent, { passive: true })
  button.addEventListener('click', () => on.activate(button))
  root.append(button)
  // On the page, and back on it when the page swaps its body or empties it.
  const place = () => {
    if (!host.isConnected) document.body.append(host)
    watch.observe(document.body, { childList: true })
  }
  const watch = new MutationObserver(place)
  watch.observe(document.documentElement, { childList: true })
  place()
  const stepAside = (event: Event) => {
    const target = event.target
    let under = false
    try {
      under = target !== host && target instanceof Element && overlap(target, button)
    } catch {}
    button.classList.toggle('away', under)
  }
  addEventListener('focusin', stepAside, true)
  return {
    name(text) {
      label.textContent = text
    },
    remove() {
      removeEventListener('focusin', stepAside, true)
      watch.disconnect()
      host.remove()
    },
  }
}

/** Whether two elements' boxes overlap on the screen. */
function overlap(one: Element, other: Element): boolean {
  const a = one.getBoundingClientRect()
  const b = other.getBoundingClientRect()
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom
}

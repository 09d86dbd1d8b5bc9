// The QR dialog, shipped in the QR file with the encoder (plain DOM, no Preact), so a page with
// the panel downloads neither until the QR code control is used. A modal <dialog> put inside the
// panel's root (its theme and custom properties apply), with its own stylesheet adopted into the
// panel's shadow root. Escape or Close ends it, and focus goes back to the control.
import { encodeQr } from './encode.ts'
import { download, qrExtent, qrPath, qrPngFile, qrSvgFile } from './svg.ts'

export interface QrDialogTexts {
  qrTitle: string
  /** The code's accessible name; {url} is the link. */
  qrAlt: string
  downloadPng: string
  downloadSvg: string
  close: string
}

export interface QrDialogOptions {
  /** The control that opened it: the dialog goes into its panel, and focus back to it. */
  control: HTMLElement
  url: string
  texts: QrDialogTexts
}

export const qrCss = `
.qr { width: min(340px, calc(100vw - 32px)); max-height: calc(100vh - 32px); padding: 16px; border: 1px solid var(--_border); border-radius: var(--_radius); background: var(--_bg); color: var(--_text); }
.qr::backdrop { background: rgb(0 0 0 / 0.5); }
.qr h3 { margin: 0 0 12px; font-size: 1.1em; }
.qr svg { display: block; width: min(240px, 100%); height: auto; margin: 0 auto; border-radius: 4px; }
.qr p { margin: 8px 0 12px; color: var(--_muted); font-size: 0.85em; text-align: center; overflow-wrap: anywhere; }
.qr .row button { flex: 1 1 auto; border: 1px solid var(--_border); background: transparent; color: var(--_text); }
.qr .row .primary { border-color: var(--_accent); background: var(--_accent); color: var(--_on-accent); }
`

let sheet: CSSStyleSheet | undefined

function adoptQrStyles(node: Node) {
  const root = node.getRootNode()
  if (!(root instanceof ShadowRoot)) return
  if ('adoptedStyleSheets' in root && typeof CSSStyleSheet === 'function') {
    sheet ??= new CSSStyleSheet()
    if (sheet.cssRules.length === 0) sheet.replaceSync(qrCss)
    if (!root.adoptedStyleSheets.includes(sheet))
      root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet]
  } else if (!root.querySelector('style[data-qr]')) {
    const style = document.createElement('style')
    style.setAttribute('data-qr', '')
    style.textContent = qrCss
    root.append(style)
  }
}

function withAttributes<E extends Element>(node: E, attributes: Record<string, string>): E {
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value)
  return node
}

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string>,
  text = '',
): HTMLElementTagNameMap[K] {
  const node = withAttributes(document.createElement(tag), attributes)
  node.textContent = text
  return node
}

/** An SVG element, built as a node: no markup is parsed (Trusted Types would refuse it). */
const svgElement = (tag: string, attributes: Record<string, string>) =>
  withAttributes(document.createElementNS('http://www.w3.org/2000/svg', tag), attributes)

/** Opens the dialog for `url`; returns it (closing removes it). */
export function openQrDialog({ control, url, texts }: QrDialogOptions): HTMLDialogElement {
  const code = encodeQr(url)
  const label = texts.qrAlt.replace('{url}', () => url) // a function: $& in a URL stays as written
  const extent = qrExtent(code)

  const dialog = element('dialog', {
    class: 'qr',
    'data-part': 'qr',
    'aria-labelledby': 'referral-qr-title',
  })
  const title = element('h3', { id: 'referral-qr-title' }, texts.qrTitle)
  const svg = svgElement('svg', {
    'data-part': 'qr-code',
    role: 'img',
    'aria-label': label,
    viewBox: `0 0 ${extent} ${extent}`,
    'shape-rendering': 'crispEdges',
  })
  // Dark modules on white whatever the theme: scanners expect dark on light.
  svg.append(
    svgElement('rect', { width: `${extent}`, height: `${extent}`, fill: '#fff' }),
    svgElement('path', { fill: '#000', d: qrPath(code) }),
  )
  const link = element('p', { dir: 'ltr' }, url)
  const actions = element('div', { class: 'row' })
  const png = element('button', { type: 'button', 'data-part': 'qr-png' }, texts.downloadPng)
  const svgButton = element('button', { type: 'button', 'data-part': 'qr-svg' }, texts.downloadSvg)
  const close = element(
    'button',
    { type: 'button', class: 'primary', 'data-part': 'qr-close' },
    texts.close,
  )
  png.onclick = () => void qrPngFile(code).then((file) => download(file, 'referral-qr.png'))
  svgButton.onclick = () =>
    download(new Blob([qrSvgFile(code, label)], { type: 'image/svg+xml' }), 'referral-qr.svg')
  close.onclick = () => dialog.close()
  actions.append(png, svgButton, close)
  dialog.append(title, svg, link, actions)

  dialog.addEventListener('close', () => {
    dialog.remove()
    control.focus()
  })
  adoptQrStyles(control)
  ;(control.closest('[data-part="root"]') ?? control.parentElement ?? document.body).append(dialog)
  dialog.showModal()
  close.focus()
  return dialog
}

// Styles into a shadow root, as a strict Content-Security-Policy takes them: a constructable
// stylesheet (no 'unsafe-inline' needed), one per text, shared by every root; where the browser
// has none, a <style> element (style-src must then allow it).
const sheets = new Map<string, CSSStyleSheet>()

export function adopt(root: ShadowRoot, text: string) {
  if ('adoptedStyleSheets' in root && typeof CSSStyleSheet === 'function') {
    try {
      let sheet = sheets.get(text)
      if (!sheet) {
        sheet = new CSSStyleSheet()
        sheet.replaceSync(text)
        sheets.set(text, sheet)
      }
      if (!root.adoptedStyleSheets.includes(sheet))
        root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet]
      return
    } catch {}
  }
  const style = root.ownerDocument.createElement('style')
  style.textContent = text
  root.append(style)
}

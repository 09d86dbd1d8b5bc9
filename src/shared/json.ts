// JSON text that the host page cannot change. JSON.stringify calls any `toJSON` it finds (a page
// that still carries Prototype.js has one on Array.prototype, which turns every array into a
// string), and a page may replace JSON itself. This writes what JSON.stringify writes on a clean
// page (byte for byte where no string holds a control character), from own enumerable properties
// only, and never calls the page's code.

// What must be escaped: the quote, the backslash, control characters and lone surrogates (the
// control characters as \u00XX, where JSON.stringify writes \n and the like: the same value).
const ESCAPED =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
  /["\\\u0000-\u001f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g

const quote = (text: string) =>
  `"${text.replace(ESCAPED, (c) => (c === '"' || c === '\\' ? `\\${c}` : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`))}"`

/** Left out of an object, `null` in an array, as JSON.stringify has it. */
const skipped = (value: unknown) =>
  value === undefined || typeof value === 'function' || typeof value === 'symbol'

/** `value` as JSON text: plain data (objects, arrays, strings, finite numbers, booleans, null). */
export function toJson(value: unknown): string {
  if (typeof value === 'string') return quote(value)
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null'
  if (typeof value === 'boolean') return value ? 'true' : 'false'
  if (typeof value !== 'object' || value === null) return 'null'
  if (Array.isArray(value)) {
    const items: string[] = []
    for (const item of value) items.push(skipped(item) ? 'null' : toJson(item))
    return `[${items.join(',')}]`
  }
  const fields: string[] = []
  for (const key of Object.keys(value)) {
    const field = (value as Record<string, unknown>)[key]
    if (!skipped(field)) fields.push(`${quote(key)}:${toJson(field)}`)
  }
  return `{${fields.join(',')}}`
}

// Taken when the widget's file runs: a page that replaces JSON.parse later does not reach it.
const parseText = JSON.parse

/** JSON text as a value, or null when it is not JSON. */
export function fromJson(text: string): unknown {
  try {
    return parseText(text)
  } catch {
    return null
  }
}

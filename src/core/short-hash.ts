// A short hash of a text, for storage key names: a key, a user id.
/** FNV-1a, 32 bits, base 36: enough to keep two keys' storage apart, not a secret. */
export function shortHash(text: string): string {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193)
  return (hash >>> 0).toString(36)
}

// The launcher's name once the panel has shown the campaign: its headline, kept under the
// widget's namespace so the next page's launcher is named by it before any panel code loads.
// Storage is never trusted: only a string of reasonable length is taken, and only as text.

/** The storage name (after the namespace). */
export const LAUNCHER_NAME = 'launcher'
/** The longest name kept or read. */
export const MAX_NAME = 200

/** The name a stored record holds, or undefined where it holds none that is usable. */
export function nameIn(raw: string | null | undefined): string | undefined {
  try {
    const { v, name } = JSON.parse(raw ?? '') as { v?: unknown; name?: unknown }
    if (v === 1 && typeof name === 'string' && name.trim() && name.length <= MAX_NAME) return name
  } catch {}
}

// What the demo's widget pages read of their own widget: window.Referral (the documented stub
// before the script has loaded, the command API after), the referral it holds, its stored keys,
// and the state its panel or banner shows.

export type CommandApi = ((method: string, ...args: unknown[]) => unknown) & { q?: unknown[][] }

/** window.Referral: the documented stub before the script has loaded, the command API after. */
export function referral(): CommandApi {
  const current = window.Referral
  if (typeof current === 'function') return current as CommandApi
  const stub: CommandApi = (...args: unknown[]) => {
    stub.q ??= []
    stub.q.push(args)
  }
  window.Referral = stub
  return stub
}

/** The widget created its API (the stub has no methods of its own). */
export const started = () => {
  const current = window.Referral
  return typeof current === 'function' && 'getLink' in current
}

/** The referral the widget holds: its code and the visitor id it is held for. */
export function heldReferral(): { code: string | null; visitorId: string | null } {
  if (!started()) return { code: null, visitorId: null }
  const value = referral()('getAttribution') as
    | { code?: unknown; visitorId?: unknown }
    | null
    | undefined
  return {
    code: typeof value?.code === 'string' ? value.code : null,
    visitorId: typeof value?.visitorId === 'string' ? value.visitorId : null,
  }
}

/** Every `referral:` key of this origin's localStorage, with its raw value, sorted. */
export function storedKeys(): Array<[string, string]> {
  const entries: Array<[string, string]> = []
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i)
      if (key?.startsWith('referral:')) entries.push([key, localStorage.getItem(key) ?? ''])
    }
  } catch {
    // No storage here: nothing to show.
  }
  return entries.sort(([a], [b]) => a.localeCompare(b))
}

/** The panel's data-state (loading, ready, empty, error), or `banner` when a banner shows. */
export function widgetState(): string | null {
  const panel = document.querySelector('[data-referral-widget]')?.shadowRoot
  const state = panel?.querySelector('[data-part="root"]')?.getAttribute('data-state')
  if (state) return state
  const banner = document.querySelector('[data-referral-banner]')?.shadowRoot
  return banner?.querySelector('[data-part="banner"]') ? 'banner' : null
}

// The tab's debug switch: `referral_debug=1` in the page's address turns debug mode on for the
// tab's session (kept in sessionStorage, never in localStorage), `referral_debug=0` off. The
// loader and the tracking part only read it (the loader then brings the tracking part); the debug
// file keeps it (core/debug/switch.ts), and lets it go when debug mode is turned off.
export const DEBUG_SWITCH = 'referral_debug'

/** Whether this tab asked for debug mode: in the address (`search`) now, or earlier in its session. */
export function debugAsked(search: string): boolean {
  try {
    return /[?&]referral_debug=1/.test(search) || sessionStorage.getItem(DEBUG_SWITCH) === '1'
  } catch {
    return false
  }
}

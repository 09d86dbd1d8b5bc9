// Keeps the tab's debug switch (shared/debug-switch.ts) as the address gives it: `=1` on for the
// tab's session, `=0` off. The debug file keeps it as it starts; the ESM package as it is created.
import { DEBUG_SWITCH, debugAsked } from '../../shared/debug-switch.ts'

/** Keeps the switch the address (`search`) gives for the tab's session; then debugAsked(). */
export function switchDebug(search: string): boolean {
  const asked = /[?&]referral_debug=([01])/.exec(search)?.[1]
  try {
    if (asked === '1') sessionStorage.setItem(DEBUG_SWITCH, '1')
    if (asked === '0') sessionStorage.removeItem(DEBUG_SWITCH)
  } catch {}
  return asked === '1' || (asked !== '0' && debugAsked(''))
}

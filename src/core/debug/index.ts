// The debug file: the decisions in words (debug mode) and diagnose(). The ESM package imports it
// the first time either is asked for; the script tag loads it as referral-widget-debug.js. Debug
// mode's state is kept here, per core (a page may run more than one).
import type { DebugCore, DebugFile } from '../tracker-options.ts'
import { diagnose } from './diagnose.ts'
import { watch } from './watch.ts'

const watching = new WeakMap<DebugCore, () => void>()

export const debugFile: DebugFile = {
  debug(core, on) {
    if (on === watching.has(core)) return
    if (on) watching.set(core, watch(core))
    else {
      watching.get(core)?.()
      watching.delete(core)
    }
  },
  diagnose: (core) => diagnose(core, watching.has(core)),
}

// debug() and diagnose() on the tracking core. Both need the debug file (src/core/debug: the
// decisions in words, the diagnosis), which comes the first time one of them is called: imported
// by the ESM package, loaded beside the tracking part by the script tag. It keeps debug mode's
// state; once it is here, debug() takes effect at once (off means nothing more is printed).
import { messageOf } from '../shared/errors.ts'
import { error as logError } from '../shared/log.ts'
import type { DebugCore, DebugFile } from './tracker-options.ts'

export function createDebugging(core: DebugCore, load: () => Promise<DebugFile>) {
  let loading: Promise<DebugFile> | undefined
  let loaded: DebugFile | undefined
  /** The debug file; asked for again after a failure. */
  const debugFile = () =>
    (loading ??= load().then(
      (file) => (loaded = file),
      (failure) => {
        loading = undefined
        throw failure
      },
    ))
  /** The latest debug(on) wins, whenever the file comes. */
  let wanted = false
  return {
    debug(on: boolean) {
      wanted = on === true
      if (loaded) return loaded.debug(core, wanted)
      debugFile().then(
        (file) => file.debug(core, wanted),
        (failure) => logError(messageOf(failure)),
      )
    },
    diagnose: () => debugFile().then((file) => file.diagnose(core)),
  }
}

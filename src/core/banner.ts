// The referred visitor's banner: whether they closed it for the code they arrived with (one
// memory of the last codes, like the clicks'). Part of the core's later part: the tracking part
// never shows a banner.

import { CODE_PATTERN } from '../api/wire.ts'
import { array, object, string } from '../shared/parse.ts'
import { REMEMBERED } from './attribution.ts'
import { v } from './persisted.ts'
import type { Core } from './tracker.ts'

const StoredBanner = /* @__PURE__ */ object({ v, dismissed: array(string(CODE_PATTERN)) })

/* @__NO_SIDE_EFFECTS__ */
export function createBanner(core: Pick<Core, 'attribution' | 'persisted'>) {
  const dismissedCodes = () => core.persisted.read(StoredBanner, 'banner')?.dismissed ?? []
  return {
    /** Whether the visitor closed the banner for the code they arrived with. */
    dismissed(): boolean {
      const code = core.attribution.get()?.code
      return code !== undefined && dismissedCodes().includes(code)
    },
    dismiss() {
      const code = core.attribution.get()?.code
      if (code === undefined) return
      const dismissed = dismissedCodes()
      if (!dismissed.includes(code))
        core.persisted.write('banner', { dismissed: [...dismissed, code].slice(-REMEMBERED) })
    },
  }
}

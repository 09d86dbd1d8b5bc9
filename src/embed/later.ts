// The script tag's handle on the later part of the core (campaign, link, banner state, stores).
// The tracking part does not carry it: the UI or banner file brings it on a page that shows one
// (fetched by the loader beside the tracking part), the link file on the first getLink()
// elsewhere. Until it is there, identify() calls wait in the command function and run in order
// once it is; getLink() brings it. On a panel page the requests the later part asks for first
// start as soon as this part runs, not after the UI file arrives (ahead.ts).
import type { Tracker } from '../core/tracker.ts'
import type { ReferralInternals, ReferralOptions } from '../core/types.ts'
import { own } from '../shared/own.ts'
import { sendAhead } from './ahead.ts'
import type { CommandFunction } from './commands.ts'
import { loadPart } from './part-files.ts'
import { type Part, uiFile } from './siblings.ts'

export const LINK_FILE = 'referral-widget-link.js'

export function createLater(
  tracker: Tracker,
  options: ReferralOptions,
  script: { src: string; pinned: boolean },
  commands: CommandFunction,
) {
  let later: Promise<{ part: Part; referral: ReferralInternals }> | undefined

  /** The file that brings the later part: the page's UI file where it shows one, else the link file. */
  const bring = (name: 'ui' | 'link') => {
    const file = name === 'ui' ? uiFile() : LINK_FILE
    if (later) return later
    const sent = name === 'ui' ? sendAhead(tracker.core, options) : {}
    later = loadPart(name, file, script, script.pinned).then((part) => {
      const referral = part.attach(
        tracker,
        own({
          ...options,
          ...sent,
          refParam: (options.refParam as string[] | undefined)?.[0] ?? 'ref',
          campaign: 'on-demand' as const,
        }),
      )
      commands.attach({
        identify: referral.identify as never,
        getLink: referral.getLink,
        // Then the referrer's results are asked for again, where the panel shows them.
        flush: async () => {
          await tracker.flush()
          referral.refreshSummary()
        },
      })
      return { part, referral }
    })
    // A file that failed to load is asked for again by the next call.
    later.catch(() => {
      later = undefined
    })
    return later
  }

  return {
    bring,
    /** getLink() before the later part is there: it brings it. */
    getLink: () =>
      bring(document.querySelector('[data-referral-widget]') ? 'ui' : 'link').then(({ referral }) =>
        referral.getLink(),
      ),
  }
}

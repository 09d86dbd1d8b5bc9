// How a later file (the UI, banner or link file) attaches the rest of the core (campaign, link,
// banner state, stores) to the tracking part's core: the tag's options as the later part reads
// them, and its methods taking over window.Referral's. Carried by those files, not by the tracking
// part, which a referred arrival loads without them.
import type { ExtrasOptions } from '../core/extras.ts'
import { attachExtras } from '../core/extras.ts'
import type { Tracker } from '../core/tracker.ts'
import type { ReferralInternals, ReferralOptions } from '../core/types.ts'
import { own } from '../shared/own.ts'
import { type CommandFunction, methodsOf } from './commands.ts'

export function attachLater(
  tracker: Tracker,
  options: ReferralOptions,
  /** What the tracking part asked for ahead of this file (ahead.ts). */
  sent: Partial<ExtrasOptions>,
  commands: CommandFunction,
): ReferralInternals {
  const referral = attachExtras(
    tracker,
    own({
      ...options,
      ...sent,
      refParam: (options.refParam as string[] | undefined)?.[0] ?? 'ref',
      campaign: 'on-demand' as const,
    }),
  )
  // Its methods take over: identify() and getLink() now, and flush() then asks for the
  // referrer's results again, where the panel shows them. open(), close() and prompt() stay the
  // tracking part's, which bring the dialog's UI file before they run here (later.ts).
  const { open, close, prompt, ...methods } = methodsOf(referral)
  commands.attach(methods)
  return referral
}

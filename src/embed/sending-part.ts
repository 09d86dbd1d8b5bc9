// How the tracking part gets what sends the queue: the delivery file, loaded the first time there
// is something to send. (The tracking-and-delivery file, which the loader takes where a page has
// something to send at once, is built with createSending itself in this module's place:
// scripts/lib-build/runtime-plugins.ts, `deliveryBuiltIn`.)
import type { TrackingParts } from '../core/create-referral.ts'
import type { CreateSending } from '../queue/sending.ts'
import { warnOnce } from '../shared/log.ts'
import { loadPart } from './part-files.ts'

export const DELIVERY_FILE = 'referral-widget-delivery.js'

export function sendingFor(script: { src: string }, pinned: boolean): TrackingParts['sending'] {
  let loading: Promise<CreateSending | undefined> | undefined
  return {
    load: () =>
      (loading ??= loadPart('delivery', DELIVERY_FILE, script, pinned).then(
        (part) => part.createSending,
        () => {
          loading = undefined // asked for again the next time there is something to send
          warnOnce(`${DELIVERY_FILE} could not be loaded; events stay stored and are sent later.`)
          return undefined
        },
      )),
  }
}

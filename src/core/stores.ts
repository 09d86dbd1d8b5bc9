// The state the UI reads. Logic lives in the core; components render these and call actions.
import { atom } from 'nanostores'
import type { LinkSummary, PublicCampaign } from '../api/wire.ts'
import type { Connection } from '../queue/queue.ts'
import type { ApiError } from '../shared/errors.ts'

export type CampaignState =
  | { status: 'loading' }
  | { status: 'ready'; campaign: PublicCampaign }
  /** No active campaign. */
  | { status: 'empty' }
  | { status: 'error'; error: ApiError }

export interface ReferralLink {
  code: string
  url: string
}

export type LinkState =
  /** No signed-in user yet. */
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'ready'; link: ReferralLink }
  | { status: 'error'; error: ApiError | Error }

export interface Attribution {
  code: string
  visitorId: string
  capturedAt: string
}

/* @__NO_SIDE_EFFECTS__ */
export function createStores() {
  return {
    $campaign: atom<CampaignState>({ status: 'loading' }),
    $link: atom<LinkState>({ status: 'idle' }),
    $attribution: atom<Attribution | null>(null),
    $queueSize: atom(0),
    $connection: atom<Connection>({ state: 'online' }),
    /** Whether the referred visitor closed the banner for the code they arrived with. */
    $bannerDismissed: atom(false),
    /** The referrer's results, where the service offers them to their token. */
    $summary: atom<LinkSummary | null>(null),
  }
}

export type ReferralStores = ReturnType<typeof createStores>

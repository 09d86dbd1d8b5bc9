// `referral-widget/core`: the headless core and its types, with no UI and no framework, for apps
// that draw their own interface or only track (a React or Vue app needs no Preact for it).

export type { PublicCampaign, TrackedEvent } from './api/wire.ts'
export {
  createReferral,
  type Referral,
  type ReferralEvents,
  type ReferralOptions,
  type Theme,
  type TrackProperties,
} from './core/create-referral.ts'
export type { Diagnosis, ReportedDecision } from './core/diagnosis.ts'
export type { Attribution, CampaignState, LinkState, ReferralLink } from './core/stores.ts'
export type { Connection, DropReason } from './queue/queue.ts'
export { createMemoryStorage, type StorageLike } from './queue/storage.ts'
export { ApiError, ConfigError } from './shared/errors.ts'
export type { Messages } from './ui/messages/index.ts'

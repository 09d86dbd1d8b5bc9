// The ESM entry: the headless core and its types. (The components join in the UI's issue.)
export { ApiError, ConfigError } from './api/errors.ts'
export type { PublicCampaign, TrackedEvent } from './api/schemas.ts'
export {
  createReferral,
  type Referral,
  type ReferralEvents,
  type ReferralOptions,
  type Theme,
  type TrackProperties,
} from './core/create-referral.ts'
export type { Connection, DropReason } from './queue/queue.ts'
export { createMemoryStorage, type StorageLike } from './queue/storage.ts'
export type { Attribution, CampaignState, LinkState, ReferralLink } from './stores/index.ts'

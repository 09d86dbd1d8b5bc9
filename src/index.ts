// The ESM entry: the components, the headless core, and their types.

export type { PublicCampaign, TrackedEvent } from './api/wire.ts'
export { ReferralBanner, ReferralWidget, type ReferralWidgetProps } from './components.tsx'
export {
  createReferral,
  type Referral,
  type ReferralEvents,
  type ReferralOptions,
  type Theme,
  type TrackProperties,
} from './core/create-referral.ts'
export type { Attribution, CampaignState, LinkState, ReferralLink } from './core/stores.ts'
export type { Connection, DropReason } from './queue/queue.ts'
export { createMemoryStorage, type StorageLike } from './queue/storage.ts'
export { ApiError, ConfigError } from './shared/errors.ts'
export type { Messages } from './ui/messages/index.ts'

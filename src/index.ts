'use client'

// The ESM entry: the Preact components, the headless core, and their types.
export {
  ReferralBanner,
  type ReferralPanelProps,
  ReferralWidget,
  type ReferralWidgetProps,
} from './components.tsx'
export * from './headless.ts'

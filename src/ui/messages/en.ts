import type { Messages } from './messages.ts'

export const en: Messages = {
  headline: 'Give {give}, get {get}',
  referrerReward: 'You get {get} credit',
  referredReward: 'Your friend gets {give} credit',
  linkLabel: 'Your referral link',
  copy: 'Copy link',
  copied: 'Link copied',
  copyFailed: 'Could not copy: select the link and copy it yourself',
  share: 'Share',
  shareVia: 'Share via {network}',
  shareSubject: 'A gift for you: {give} credit',
  shareText: 'Sign up with my link and get {give} credit.',
  signIn: 'Sign in to get your referral link.',
  error: 'Referral rewards are not available right now.',
  offline: 'You are offline. Your activity will be sent when you are back.',
  rateLimited: 'Busy right now. Your activity will be sent shortly.',
  testMode: 'Test mode',
  banner: 'A friend invited you: sign up and get {give} credit',
  dismiss: 'Dismiss',
  loading: 'Loading your referral rewards',
}

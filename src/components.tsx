// Preact components for SPA developers. They render an empty host element on the server and in
// the first client render (so hydration matches), then mount the widget in a shadow root.
import { useEffect, useRef, useState } from 'preact/hooks'
import type { ReferralInternals as Referral, ReferralOptions } from './core/types.ts'
import { error as logError } from './shared/log.ts'
import type { Messages } from './ui/messages/index.ts'
import { mountBanner, mountPanel } from './ui/mount.ts'
import { acquireReferral, releaseReferral } from './ui/registry.ts'

export interface ReferralWidgetProps extends ReferralOptions {
  /** Overrides of the built-in messages. */
  messages?: Partial<Messages> | undefined
  class?: string | undefined
}

type Mount = typeof mountPanel

function useWidget(props: ReferralWidgetProps, mount: Mount, marker: string) {
  const host = useRef<HTMLDivElement>(null)
  const [referral, setReferral] = useState<Referral | null>(null)
  const { publicKey, apiBase, campaignId, locale, theme, messages } = props

  // The core: one per key and service, shared with the page's other widgets.
  // A new core only for a new key, service or campaign; other prop changes go to the core.
  useEffect(() => {
    let shared: Referral
    try {
      shared = acquireReferral(props)
    } catch (failure) {
      logError(failure instanceof Error ? failure.message : String(failure))
      return
    }
    setReferral(shared)
    return () => {
      setReferral(null)
      releaseReferral(shared)
    }
  }, [publicKey, apiBase, campaignId])

  useEffect(() => {
    if (!referral || !host.current) return
    return mount(host.current, referral, { locale, theme, messages })
  }, [referral, locale, theme, messages, mount])

  useEffect(() => {
    if (!referral || props.userId === undefined) return
    try {
      referral.identify(props.userId)
    } catch (failure) {
      logError(failure instanceof Error ? failure.message : String(failure))
    }
  }, [referral, props.userId])

  return <div ref={host} class={props.class} {...{ [marker]: '' }} />
}

/** The signed-in referrer's panel: rewards, share link, copy and share buttons. */
export function ReferralWidget(props: ReferralWidgetProps) {
  return useWidget(props, mountPanel, 'data-referral-widget')
}

/** The referred visitor's "a friend invited you" banner. */
export function ReferralBanner(props: ReferralWidgetProps) {
  return useWidget(props, mountBanner, 'data-referral-banner')
}

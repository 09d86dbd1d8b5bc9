'use client'

// The components' life cycle, written once for Preact's and React's hooks (the two have the same
// signatures): one shared core per key, the panel, its dialog or the banner mounted in the host's
// shadow root after the first render (so server markup and hydration see an empty host), every
// prop followed.

import type { ReferralInternals as Referral, ReferralOptions, Theme } from '../core/types.ts'
import { messageOf } from '../shared/errors.ts'
import { toJson } from '../shared/json.ts'
import { error as logError } from '../shared/log.ts'
import type { Messages } from './messages/index.ts'
import { acquireReferral, releaseReferral } from './registry.ts'

/** Props shared by the Preact and React components. */
export interface WidgetOptions extends ReferralOptions {
  /** Overrides of the built-in messages. */
  messages?: Partial<Messages> | undefined
  /** Adds utm_source=<channel>&utm_medium=referral to the link each share channel shares. */
  shareUtm?: boolean | undefined
}

/**
 * mountPanel or mountBanner. Spelled out rather than imported, so the React entry's types never
 * reach the Preact UI's (an app without Preact type-checks them).
 */
export type Mount = (
  host: Element,
  referral: Referral,
  options: {
    locale?: string | undefined
    theme?: Theme | undefined
    messages?: Partial<Messages> | undefined
    shareUtm?: boolean | undefined
  },
) => () => void

type Cleanup = (() => void) | undefined

/** The hooks used here, as both Preact (`preact/hooks`) and React export them. */
export interface Hooks {
  useEffect(effect: () => Cleanup, deps: readonly unknown[]): void
  useRef<T>(initial: T | null): { current: T | null }
  useState<S>(initial: S): [S, (value: S) => void]
  useMemo<T>(factory: () => T, deps: readonly unknown[]): T
}

/**
 * The options a core is built from. A change to any of them builds a new core; `userId` (with
 * `userToken`) goes to `identify()` and `locale`, `theme`, `messages` and `shareUtm` re-render the mounted UI. Injected functions
 * and objects (`fetch`, `storage`, `host`, …) are read when a core is built.
 */
function coreKey(options: ReferralOptions): string {
  const { publicKey, apiBase, campaignId, refParam, landingUrl, cleanUrl, campaign } = options
  const { consent, honorGpc, cookieDomain, attribution, outbound } = options
  const { maxQueuedEvents, maxEventAgeMs } = options
  return toJson([
    publicKey,
    apiBase,
    campaignId,
    typeof refParam === 'string' ? refParam : refParam?.join(','),
    landingUrl,
    cleanUrl,
    campaign,
    consent,
    honorGpc,
    cookieDomain,
    attribution,
    typeof outbound === 'string' ? outbound : outbound?.join(','),
    maxQueuedEvents,
    maxEventAgeMs,
  ])
}

const report = (failure: unknown) => logError(messageOf(failure))

/** The panel's dialog variant: modal while `open` is true; `onClose` when the visitor closed it. */
export interface DialogProps {
  open?: boolean | undefined
  onClose?: (() => void) | undefined
}

/** Returns the ref to put on the host element. */
export function useWidget<T extends Element>(
  hooks: Hooks,
  props: WidgetOptions & DialogProps,
  mount: Mount,
): { current: T | null } {
  const { useEffect, useMemo, useRef, useState } = hooks
  const host = useRef<T>(null)
  const [referral, setReferral] = useState<Referral | null>(null)
  const latest = useRef<WidgetOptions & DialogProps>(null)
  latest.current = props
  const { locale, theme, messages, userId, userToken } = props
  const shareUtm = props.shareUtm === true
  const key = coreKey(props)
  // Messages are compared by content: an inline object literal is new on every render.
  const messagesKey = toJson(messages ?? null)
  const stableMessages = useMemo(() => messages, [messagesKey])

  useEffect(() => {
    let shared: Referral
    try {
      shared = acquireReferral(latest.current ?? props)
    } catch (failure) {
      report(failure)
      return undefined
    }
    setReferral(shared)
    return () => {
      setReferral(null)
      releaseReferral(shared)
    }
  }, [key])

  useEffect(() => {
    if (!referral || !host.current) return undefined
    return mount(host.current, referral, { locale, theme, messages: stableMessages, shareUtm })
  }, [referral, locale, theme, stableMessages, shareUtm, mount])

  // The dialog variant: `open` followed; a close the visitor made is told to onClose.
  const { open } = props
  useEffect(() => {
    if (!referral || open === undefined) return undefined
    if (open) referral.open()
    else referral.close()
    return referral.on('close', () => latest.current?.onClose?.())
  }, [referral, open])

  useEffect(() => {
    if (!referral || userId === undefined) return undefined
    try {
      referral.identify(userId, { token: userToken })
    } catch (failure) {
      report(failure)
    }
    return undefined
  }, [referral, userId, userToken])

  return host
}

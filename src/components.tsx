'use client'

// Preact components for SPA developers. They render an empty host element on the server and in
// the first client render (so hydration matches), then mount the widget in a shadow root.
import * as hooks from 'preact/hooks'
import { mountDialog } from './ui/dialog/mount.ts'
import { mountBanner, mountPanel } from './ui/mount.ts'
import {
  type DialogProps,
  type Hooks,
  type Mount,
  useWidget,
  type WidgetOptions,
} from './ui/use-widget.ts'

export interface ReferralWidgetProps extends WidgetOptions {
  class?: string | undefined
}

/** The panel's props: `variant="dialog"` shows it as a modal dialog while `open` is true. */
export interface ReferralPanelProps extends ReferralWidgetProps, DialogProps {
  variant?: 'inline' | 'dialog' | undefined
}

function useHost(props: ReferralWidgetProps, mount: Mount, marker: string) {
  const host = useWidget<HTMLDivElement>(hooks as Hooks, props, mount)
  return <div ref={host} class={props.class} {...{ [marker]: '' }} />
}

/** The signed-in referrer's panel: rewards, share link, copy and share buttons. */
export function ReferralWidget(props: ReferralPanelProps) {
  return useHost(
    props,
    props.variant === 'dialog' ? mountDialog : mountPanel,
    'data-referral-widget',
  )
}

/** The referred visitor's "a friend invited you" banner. */
export function ReferralBanner(props: ReferralWidgetProps) {
  return useHost(props, mountBanner, 'data-referral-banner')
}

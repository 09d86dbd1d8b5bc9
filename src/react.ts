'use client'

// `referral-widget/react`: the panel and the banner as React 18/19 components. React renders an
// empty host element (on the server too, so hydration matches); the widget mounts in that host's
// shadow root after the first render, drawn by the Preact this entry brings along, bundled.
import * as React from 'react'
import { mountDialog } from './ui/dialog/mount.ts'
import { mountBanner, mountPanel } from './ui/mount.ts'
import {
  type DialogProps,
  type Hooks,
  type Mount,
  useWidget,
  type WidgetOptions,
} from './ui/use-widget.ts'

// The headless core too, so a React app imports everything from one place.
export * from './headless.ts'

export interface ReferralWidgetProps extends WidgetOptions {
  className?: string | undefined
  id?: string | undefined
  style?: React.CSSProperties | undefined
}

function useHost(props: ReferralWidgetProps, mount: Mount, marker: string): React.ReactElement {
  const host = useWidget<HTMLDivElement>(React as unknown as Hooks, props, mount)
  return React.createElement('div', {
    ref: host as React.RefObject<HTMLDivElement>,
    className: props.className,
    id: props.id,
    style: props.style,
    [marker]: '',
  })
}

/** The panel's props: `variant="dialog"` shows it as a modal dialog while `open` is true. */
export interface ReferralPanelProps extends ReferralWidgetProps, DialogProps {
  variant?: 'inline' | 'dialog' | undefined
}

/** The signed-in referrer's panel: rewards, share link, copy and share buttons. */
export function ReferralWidget(props: ReferralPanelProps): React.ReactElement {
  return useHost(
    props,
    props.variant === 'dialog' ? mountDialog : mountPanel,
    'data-referral-widget',
  )
}

/** The referred visitor's "a friend invited you" banner. */
export function ReferralBanner(props: ReferralWidgetProps): React.ReactElement {
  return useHost(props, mountBanner, 'data-referral-banner')
}

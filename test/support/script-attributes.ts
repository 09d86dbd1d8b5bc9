// Everything a script tag says, read as the widget reads it in two places: the tracking file
// its options (readTrackingAttributes), the UI file the panel's own (readUiAttributes). The
// attribute tests and their fuzzer check both through this one reading; the script tag the
// attribute tests read, with a key and a script URL unless a test gives its own.
import { precise } from '../../src/embed/attribute-checks.ts'
import {
  type Attributes,
  readTrackingAttributes,
  type TrackingConfig,
} from '../../src/embed/attributes.ts'
import {
  rawUiAttributes,
  readUiAttributes,
  type UiAttributes,
} from '../../src/embed/ui-attributes.ts'

export interface EmbedConfig extends TrackingConfig, UiAttributes {}

/** Throws the ConfigError readTrackingAttributes throws (a missing, malformed or secret key). */
export function readAttributes(
  attributes: Attributes,
  scriptSrc: string | undefined,
  pageHref?: string | undefined,
): EmbedConfig {
  const tracking = readTrackingAttributes(
    attributes,
    scriptSrc,
    pageHref ?? globalThis.location?.href,
    precise,
  )
  const ui = readUiAttributes(rawUiAttributes(attributes))
  return {
    options: tracking.options,
    key: tracking.key,
    global: tracking.global,
    messages: ui.messages,
    shareUtm: ui.shareUtm,
    problems: [...tracking.problems, ...ui.problems],
  }
}

/** The URL the attribute tests' script is loaded from, and its origin. */
export const SRC = 'https://cdn.referrals.example/widget/v2/referral-widget.js?v=3#x'
export const ORIGIN = 'https://cdn.referrals.example'

/** A script element's attributes, as readAttributes reads them. */
export function script(attributes: Record<string, string>) {
  return {
    getAttribute: (name: string) => attributes[name] ?? null,
  }
}

/** What readAttributes reads from a script tag of these attributes and a public key. */
export const read = (attributes: Record<string, string>, src: string | undefined = SRC) =>
  readAttributes(script({ 'data-key': 'pk_test_acme', ...attributes }), src)

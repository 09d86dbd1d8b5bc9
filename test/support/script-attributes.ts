// Everything a script tag says, read as the widget reads it in two places: the tracking file
// its options (readTrackingAttributes), the UI file the panel's own (readUiAttributes). The
// attribute tests and their fuzzer check both through this one reading.
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
  const tracking = readTrackingAttributes(attributes, scriptSrc, pageHref)
  const ui = readUiAttributes(rawUiAttributes(attributes))
  return {
    options: tracking.options,
    global: tracking.global,
    messages: ui.messages,
    shareUtm: ui.shareUtm,
    problems: [...tracking.problems, ...ui.problems],
  }
}

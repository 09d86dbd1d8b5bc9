// The script tag's attributes that only the panel reads (data-messages, data-share-utm): read by
// the UI file when it runs, so the tracking part carries neither the reading nor its messages.
// A bad one is reported on the console and left out, like every other attribute.
import { quote } from '../core/options.ts'
import type { MessageOverrides } from '../ui/messages/index.ts'

/** The panel's attributes as written on the tag (absent: undefined). */
export interface RawUiAttributes {
  messages?: string | undefined
  shareUtm?: string | undefined
}

export interface UiAttributes {
  messages: MessageOverrides | undefined
  /** data-share-utm: tag each channel's link with utm_source/utm_medium. */
  shareUtm: boolean | undefined
}

/** The tag's attributes the panel reads, by what they set. */
export const UI_ATTRIBUTES = { messages: 'data-messages', shareUtm: 'data-share-utm' } as const

/** The panel's attributes of the script tag, unread. */
export const rawUiAttributes = (tag: {
  getAttribute(name: string): string | null
}): RawUiAttributes => ({
  messages: tag.getAttribute(UI_ATTRIBUTES.messages) ?? undefined,
  shareUtm: tag.getAttribute(UI_ATTRIBUTES.shareUtm) ?? undefined,
})

/** A counted message's plural forms, e.g. {"one": "…", "other": "…"}: strings only. */
const isForms = (value: unknown) =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  Object.values(value).every((form) => typeof form === 'string')

/** The panel's attributes, checked: what is usable, and a sentence per refused one. */
export function readUiAttributes(raw: RawUiAttributes): UiAttributes & { problems: string[] } {
  const problems: string[] = []
  let messages: MessageOverrides | undefined
  if (raw.messages !== undefined) {
    try {
      const parsed: unknown = JSON.parse(raw.messages)
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error()
      messages = Object.fromEntries(
        Object.entries(parsed).filter(([, value]) => typeof value === 'string' || isForms(value)),
      )
    } catch {
      problems.push(
        `data-messages=${quote(raw.messages)} is ignored: it must be a JSON object of message strings.`,
      )
    }
  }
  const utm = raw.shareUtm
  if (utm !== undefined && utm !== 'true' && utm !== 'false')
    problems.push(`data-share-utm=${quote(utm)} is ignored: it must be true or false.`)
  return { messages, shareUtm: utm === 'true' || undefined, problems }
}

// Replaced in each messages file's build by the language it carries (vite.lib.config.ts,
// `oneLanguage`); as written, English, so the module type-checks and tests can import it.
import { en } from '../ui/messages/en.ts'
import type { UiLanguage } from '../ui/messages/languages.ts'
import type { Messages } from '../ui/messages/messages.ts'

export const LANGUAGE: UiLanguage = 'en'
export const MESSAGES: Messages = en

// A messages file of the script tag (`referral-widget-messages-<language>.js`): one built-in
// language's messages for the UI file, which carries English itself. Fetched beside the UI file
// only for a page in that language (and pinned by the hash the UI file carries when the script
// tag is pinned). The build puts the language in `./one-language.ts`.
import { LANGUAGE, MESSAGES } from './one-language.ts'
import { handOver } from './siblings.ts'

handOver('messages', { language: LANGUAGE, messages: MESSAGES })

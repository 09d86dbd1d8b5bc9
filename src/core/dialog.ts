// Where the panel opens as a dialog: open(), close() and prompt(). The state lives here, in the
// core (the dialog element renders it, the launcher and the site's buttons ask for it); `open` and
// `close` are announced as they happen. A prompt opens the panel unless this user was already
// prompted for this campaign in this browser: a prompt shown counts, whatever followed (closed,
// shared, the page left). What is remembered is a short hash of campaign and user, never the user
// id, the last MAX_PROMPTED of them (about 300 characters of storage at most), and nothing while
// consent is pending or refused: then there is no prompt either.
import { atom } from 'nanostores'
import { array, object, string } from '../shared/parse.ts'
import { LAUNCHER_NAME, MAX_NAME, nameIn } from './launcher-name.ts'
import type { Persisted } from './persisted.ts'
import { v } from './persisted.ts'
import { shortHash } from './short-hash.ts'
import type { CampaignState } from './stores.ts'
import type { CoreEvents, DialogState } from './types.ts'

/** The prompts remembered: the newest MAX_PROMPTED (campaign, user) pairs. */
export const MAX_PROMPTED = 20
const PROMPTED = 'prompted'
const StoredPrompted = /* @__PURE__ */ object({ v, keys: array(string(/^[0-9a-z]{1,8}$/)) })

export interface DialogCore {
  persisted: Persisted
  consented(): boolean
  events: { emit<K extends keyof CoreEvents>(name: K, payload: CoreEvents[K]): void }
}

export function createDialog(
  core: DialogCore,
  given: {
    user(): string | undefined
    $campaign: {
      get(): CampaignState
      listen(listener: (state: CampaignState) => void): () => void
    }
    needCampaign(): void
  },
) {
  const $dialog = atom<DialogState>({ open: false })

  const open = (opener?: unknown, prompted = false) => {
    if ($dialog.get().open) return
    $dialog.set({ open: true, opener: elementOr(opener), prompted })
    core.events.emit('open', { prompted })
  }

  const close = () => {
    if (!$dialog.get().open) return
    $dialog.set({ open: false })
    core.events.emit('close', undefined)
  }

  /** The key remembered for this user and campaign. */
  const promptKey = (campaignId: string, userId: string) => shortHash(`${campaignId} ${userId}`)

  /** Opens the panel for a prompt, once per user and campaign: now or when the campaign is known. */
  const promptNow = (state: CampaignState): boolean => {
    if (state.status === 'loading') return false
    const userId = given.user()
    if (state.status !== 'ready' || userId === undefined || !core.consented()) return true
    const keys = core.persisted.read(StoredPrompted, PROMPTED)?.keys ?? []
    const key = promptKey(state.campaign.id, userId)
    if (keys.includes(key)) return true
    core.persisted.write(PROMPTED, { keys: [...keys, key].slice(-MAX_PROMPTED) })
    open(undefined, true)
    return true
  }

  return {
    $dialog,
    /** The campaign's headline as the panel shows it: the launcher's name from now on. */
    nameLauncher(name: string) {
      const stored = core.persisted.storage.get(core.persisted.namespace + LAUNCHER_NAME)
      if (name.length <= MAX_NAME && nameIn(stored) !== name)
        core.persisted.write(LAUNCHER_NAME, { name })
    },
    open: (opener?: unknown) => open(opener),
    close,
    prompt() {
      // Nothing asked of the service for a visitor who did not consent, or no one signed in.
      if (!core.consented() || given.user() === undefined) return
      given.needCampaign()
      if (promptNow(given.$campaign.get())) return
      const stop = given.$campaign.listen((state) => {
        if (promptNow(state)) stop()
      })
    },
  }
}

/** The opener where it is an element of the page (the core also runs where there is no DOM). */
function elementOr(opener: unknown): Element | undefined {
  try {
    if (typeof Element === 'function' && opener instanceof Element) return opener
  } catch {}
}

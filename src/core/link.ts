// The referrer's share link: who is identified, their link for the campaign (cached for good:
// a link never changes for its campaign and referrer), and the URL it makes.
import type { ReferrerCalls, SentRequest } from '../api/referrer-calls.ts'
import { parseLink } from '../api/referrer-wire.ts'
import type { Link } from '../api/wire.ts'
import { ConfigError, errorOf } from '../shared/errors.ts'
import { object } from '../shared/parse.ts'
import { USER_ID_EXPECTED, USER_TOKEN_EXPECTED } from './option-errors.ts'
import { checked } from './options.ts'
import { rememberOwnLink } from './own-links.ts'
import { linkCacheName, v } from './persisted.ts'
import type { ReferralLink, ReferralStores } from './stores.ts'
import type { Core } from './tracker.ts'
import type { UserToken } from './user-token.ts'

/** A link as stored: cached for good (a link never changes for its campaign and referrer). */
const StoredLink = /* @__PURE__ */ object({ v, link: parseLink })

/* @__NO_SIDE_EFFECTS__ */
export function createLink(options: {
  core: Core
  stores: ReferralStores
  calls: ReferrerCalls
  userId: string | undefined
  landingUrl: string | undefined
  /** The URL parameter share links carry the code in. */
  refParam: string
  /** The referrer's token, sent with the link request. */
  userToken: UserToken
  /** A link request the script tag already sent for this campaign and user, if any. */
  prefetched?:
    | ((campaignId: string, userId: string, token: string | undefined) => SentRequest | undefined)
    | undefined
}) {
  const { core, stores } = options
  let userId = options.userId
  let request: Promise<void> | null = null

  function landingUrl(): URL | null {
    if (options.landingUrl !== undefined) return new URL(options.landingUrl)
    const href = core.host.href()
    if (href === undefined) return null
    const page = new URL(href)
    return page.protocol === 'http:' || page.protocol === 'https:'
      ? new URL(`${page.origin}/`)
      : null
  }

  function shareLink(code: string): ReferralLink {
    const url = landingUrl()
    if (!url) {
      throw new ConfigError(
        'landingUrl',
        'landingUrl is required where there is no page to link to.',
      )
    }
    url.searchParams.set(options.refParam, code)
    return { code, url: url.toString() }
  }

  function load(): Promise<void> {
    const campaignState = stores.$campaign.get()
    const user = userId
    if (!core.consented()) return Promise.resolve() // the user id is not sent before consent
    if (user === undefined || campaignState.status !== 'ready') {
      if (user === undefined) stores.$link.set({ status: 'idle' })
      return Promise.resolve()
    }
    const campaignId = campaignState.campaign.id
    const name = linkCacheName(campaignId, user)
    const cached = core.persisted.read(StoredLink, name)
    const set = (link: Link) => {
      const value = shareLink(link.code)
      // Shown to its own referrer here: an arrival through it in this browser counts nothing.
      const now = core.now()
      const { storage, namespace } = core.persisted
      rememberOwnLink(storage, namespace, link.code, now + core.attribution.windowMs(), now)
      // This browser arrived through that very link before it was shown here: that referral was
      // its referrer's own, and is let go (the service takes that click back as well).
      if (core.attribution.get()?.code === link.code) {
        core.persisted.remove('attribution')
        stores.$attribution.set(null)
        core.events.emit('selfreferral', { code: link.code })
      }
      const before = stores.$link.get()
      if (before.status !== 'ready' || before.link.url !== value.url) {
        stores.$link.set({ status: 'ready', link: value })
        core.events.emit('link', value)
      }
    }
    try {
      if (cached && cached.link.campaignId === campaignId && cached.link.referrerId === user) {
        set(cached.link)
        return Promise.resolve()
      }
      if (stores.$link.get().status !== 'ready') stores.$link.set({ status: 'loading' })
    } catch (error) {
      const failure = errorOf(error)
      stores.$link.set({ status: 'error', error: failure })
      core.fail(failure)
      return Promise.resolve()
    }
    request = (async () => {
      try {
        const link = await options.userToken.send((token) =>
          // A request sent ahead with this very token is used (once); else a new one.
          options.calls.createLink(
            campaignId,
            user,
            token,
            options.prefetched?.(campaignId, user, token),
            core.attribution.visitorId(),
          ),
        )
        if (core.isDestroyed() || userId !== user) return
        core.persisted.write(name, { link })
        set(link)
      } catch (error) {
        if (core.isDestroyed() || userId !== user) return
        const failure = errorOf(error)
        stores.$link.set({ status: 'error', error: failure })
        core.fail(failure)
      }
    })()
    return request
  }

  return {
    load,
    /** The signed-in user, if any. */
    user: () => userId,
    /** Before any link is asked for: the state a signed-in user starts in. */
    start() {
      if (userId !== undefined) stores.$link.set({ status: 'loading' })
    },
    identify(id: string | null | undefined, identity?: { token?: string | undefined }) {
      if (id === null || id === undefined) {
        userId = undefined
        options.userToken.set(undefined)
        stores.$link.set({ status: 'idle' })
        return
      }
      checked('userId', id, USER_ID_EXPECTED)
      const token =
        identity?.token === undefined
          ? undefined
          : checked('userToken', identity.token, USER_TOKEN_EXPECTED)
      const before = options.userToken.get()
      // A token is one user's: another user without one has none.
      if (token !== undefined || id !== userId) options.userToken.set(token)
      const status = stores.$link.get().status
      const newToken = token !== undefined && token !== before
      if (id === userId && status !== 'idle' && !(newToken && status === 'error')) return
      userId = id
      stores.$link.set({ status: 'loading' })
      void load()
    },
    /** Consent given: the link can be asked for now. */
    resume() {
      stores.$link.set(userId === undefined ? { status: 'idle' } : { status: 'loading' })
      void load()
    },
    async get(): Promise<ReferralLink> {
      if (userId === undefined) {
        throw new ConfigError(
          'userId',
          'getLink() needs a signed-in user: call identify(userId) first.',
        )
      }
      for (;;) {
        const state = stores.$link.get()
        if (state.status === 'ready') return state.link
        if (state.status === 'error') throw state.error
        const campaign = stores.$campaign.get()
        if (campaign.status === 'empty')
          throw new ConfigError('campaignId', 'There is no active campaign to link to.')
        if (campaign.status === 'error') throw campaign.error
        await new Promise<void>((resolve) => {
          const stop = [stores.$link.listen(() => done()), stores.$campaign.listen(() => done())]
          function done() {
            for (const unsubscribe of stop) unsubscribe()
            resolve()
          }
        })
        await request
      }
    },
  }
}

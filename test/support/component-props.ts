// The harness's tab options as the props of a component, Preact's or React's: the test key and
// service, the world's fetch, the test's storage, a fixed random, and a host at `href`.
import type { FetchLike } from '../../src/api/client.ts'
import type { StorageLike } from '../../src/queue/storage.ts'
import { API } from './harness.ts'

export function componentProps(fetch: FetchLike, storage: StorageLike, href?: string) {
  return {
    publicKey: 'pk_test_acme',
    apiBase: API,
    fetch,
    storage,
    now: () => Date.now(),
    random: () => 0.5,
    landingUrl: 'https://shop.test/',
    locks: null,
    host: {
      href: () => href,
      replaceUrl: () => {},
      isOnline: () => true,
      listen: () => () => {},
      locks: undefined,
      sendBeacon: undefined,
    },
  }
}

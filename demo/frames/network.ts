// Simulated offline mode for the widget, and a count of the requests it makes to /v1.
// A page cannot switch the browser's own offline mode on (DevTools → Network → Offline can), so
// this does what the widget sees of it: navigator.onLine is false, `offline`/`online` events
// fire, and fetch and sendBeacon fail.

export interface NetworkSim {
  isOffline(): boolean
  setOffline(offline: boolean): void
  /** Requests made to /v1 (fetch and sendBeacon) since the page loaded, failed ones included. */
  apiRequests(): number
  onChange(listener: () => void): void
}

const isApi = (url: string) => {
  try {
    return /^\/v1(\/|$)/.test(new URL(url, location.href).pathname)
  } catch {
    return false
  }
}

function urlOf(input: RequestInfo | URL): string {
  if (typeof input === 'string') return input
  if (input instanceof URL) return input.href
  return input.url
}

/**
 * Installs the simulation. With `apiOnly`, only requests to /v1 fail while offline (the demo
 * page keeps polling its own /demo-api routes).
 */
export function installNetworkSim(options: { apiOnly?: boolean } = {}): NetworkSim {
  const realFetch = window.fetch.bind(window)
  const realBeacon =
    typeof navigator.sendBeacon === 'function' ? navigator.sendBeacon.bind(navigator) : null
  const onLine = Object.getOwnPropertyDescriptor(Navigator.prototype, 'onLine')?.get
  const listeners = new Set<() => void>()
  let offline = false
  let count = 0
  const changed = () => {
    for (const listener of listeners) listener()
  }
  const blocked = (api: boolean) => offline && (api || !options.apiOnly)

  window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const url = urlOf(input)
    const api = isApi(url)
    if (api) {
      count += 1
      changed()
    }
    if (blocked(api)) {
      return Promise.reject(new TypeError('Failed to fetch (offline, simulated by the demo page)'))
    }
    return realFetch(input, init)
  }
  if (realBeacon) {
    navigator.sendBeacon = (url: string | URL, data?: BodyInit | null) => {
      const href = String(url)
      const api = isApi(href)
      if (api) {
        count += 1
        changed()
      }
      if (blocked(api)) return false
      return realBeacon(url, data)
    }
  }
  Object.defineProperty(navigator, 'onLine', {
    configurable: true,
    get: () => !offline && (onLine ? onLine.call(navigator) !== false : true),
  })

  return {
    isOffline: () => offline,
    setOffline(next) {
      if (next === offline) return
      offline = next
      window.dispatchEvent(new Event(next ? 'offline' : 'online'))
      changed()
    },
    apiRequests: () => count,
    onChange(listener) {
      listeners.add(listener)
    },
  }
}

// The service's time as this page can estimate it. Every answer carries a `Date` header (the
// contract exposes it to scripts): the gap between it and the device clock is the device's
// error. A device clock that is wrong, or corrected while events wait, must not decide when an
// event is too old or how long a Retry-After date lasts.

export interface ServiceClock {
  /** The estimated service time: the device time plus the offset learned in this page. */
  now(): number
  /** Whether an answer in this page has taught the offset (never carried over from storage). */
  known(): boolean
  /** Learns from an answer's `Date` header, read between `sentAt` and `receivedAt` (device ms). */
  observe(date: string | null, sentAt: number, receivedAt: number): void
  /** Called once, when the first answer has taught the offset. */
  onKnown(listener: () => void): void
}

/** An HTTP-date (IMF-fixdate and the two obsolete forms) as ms, or NaN. */
export function httpDateMs(value: string | null | undefined): number {
  const text = value?.trim()
  // Only date-like text: Date.parse also accepts odd inputs such as "1" or "  2".
  // IMF-fixdate, RFC 850 and asctime forms all start with a weekday name.
  return text && /^[A-Za-z]{3,9},? /.test(text) ? Date.parse(text) : Number.NaN
}

/* @__NO_SIDE_EFFECTS__ */
export function createServiceClock(deviceNow: () => number): ServiceClock {
  let offset: number | null = null
  const listeners: Array<() => void> = []
  return {
    now: () => deviceNow() + (offset ?? 0),
    known: () => offset !== null,
    observe(date, sentAt, receivedAt) {
      const at = httpDateMs(date)
      if (!Number.isFinite(at) || !Number.isFinite(sentAt) || !Number.isFinite(receivedAt)) return
      // `Date` has whole seconds: the service's instant lies in [at, at + 1 s), taken at the
      // middle, against the middle of the exchange on the device.
      const first = offset === null
      offset = Math.round(at + 500 - (sentAt + receivedAt) / 2)
      if (first) for (const listener of listeners.splice(0)) listener()
    },
    onKnown(listener) {
      if (offset === null) listeners.push(listener)
    },
  }
}

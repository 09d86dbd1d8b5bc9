// Starting a browser or its driver hangs now and then (seen in WebKit on a busy machine, both for
// the engine's first browser and for a second, private one a test opens): each start is given a
// deadline and tried again. A start past its deadline is told to give up (its `abandon` signal:
// a hung driver is stopped, so it cannot hold up the next try), and closed if it comes up anyway.
/** Runs `start` up to `tries` times, each given `ms`; fails naming `what` and every failure. */
export async function startWithTries<T extends { close(): Promise<void> }>(
  what: string,
  start: (abandon: AbortSignal) => Promise<T>,
  { ms, tries }: { ms: number; tries: number },
): Promise<T> {
  const failures: string[] = []
  for (let attempt = 1; attempt <= tries; attempt++) {
    const abandon = new AbortController()
    const starting = start(abandon.signal)
    let stopClock = () => {}
    const late = new Promise<undefined>((resolve) => {
      const timer = setTimeout(resolve, ms)
      stopClock = () => clearTimeout(timer)
    })
    const started = await Promise.race([starting, late])
      .catch((error: unknown) => {
        failures.push(String(error))
        return undefined
      })
      .finally(stopClock)
    if (started) return started
    if (failures.length < attempt) failures.push(`no answer in ${ms / 1000} s`)
    abandon.abort()
    starting.then((late) => late.close()).catch(() => {})
  }
  throw new Error(`${what} did not start (${tries} tries): ${failures.join('; ')}`)
}

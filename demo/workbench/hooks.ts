import { useEffect, useRef, useState } from 'preact/hooks'
import { errorText } from './format.ts'
import { $refresh } from './hub.ts'

export interface Polled<T> {
  data: T | undefined
  error: string | null
}

/**
 * Calls `load` now, every `ms`, and whenever an action asks all views to refresh; a new set of
 * `deps` starts over. Answers of an older set are ignored.
 */
export function usePoll<T>(
  load: (() => Promise<T>) | null,
  ms: number,
  deps: readonly unknown[],
): Polled<T> {
  const [state, setState] = useState<Polled<T>>({ data: undefined, error: null })
  const loader = useRef(load)
  loader.current = load
  useEffect(() => {
    let active = true
    let running = false
    setState({ data: undefined, error: null })
    const run = async () => {
      const current = loader.current
      if (!current || running) return
      running = true
      try {
        const data = await current()
        if (active) setState({ data, error: null })
      } catch (error) {
        if (active) setState((before) => ({ data: before.data, error: errorText(error) }))
      } finally {
        running = false
      }
    }
    void run()
    const timer = setInterval(run, ms)
    const stop = $refresh.listen(() => void run())
    return () => {
      active = false
      clearInterval(timer)
      stop()
    }
  }, deps)
  return state
}

/** Re-renders every `ms`, for "in 4 s" countdowns. */
export function useNow(ms = 1000): number {
  const [now, setNow] = useState(Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), ms)
    return () => clearInterval(timer)
  }, [ms])
  return now
}

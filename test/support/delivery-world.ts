// The set-up every delivery scenario shares: fake time from a fixed instant, one in-process
// service behind a fault injector, quiet consoles, and tabs destroyed after each test. Its first
// part, the fake clock (useFakeClock), serves the tests that make their own worlds too.
import { afterEach, beforeEach, type MockInstance, vi } from 'vitest'
import { resetWarnings } from '../../src/shared/log.ts'
import { createWorld } from './harness.ts'

export type World = ReturnType<typeof createWorld>
export type Tab = ReturnType<World['tab']>
export type TabOptions = Parameters<World['tab']>[0]

export const SECOND = 1000
export const MINUTE = 60 * SECOND
export const DAY = 24 * 60 * MINUTE
/**
 * Where the delivery scenarios start: on an exact second, so an HTTP-date Retry-After can name
 * an exact instant.
 */
export const START = Date.UTC(2026, 0, 15, 12)

/** Lets requests and timers due now run, once; time stands still. */
export const tick = () => vi.advanceTimersByTimeAsync(0)

/** Lets requests, microtasks, messages between tabs and timers due now run; time stands still. */
export async function settle() {
  for (let i = 0; i < 5; i++) await tick()
}

/**
 * Registers fake time from `start` and fresh once-only warnings for each of the file's tests;
 * real time and every mock are back after each.
 */
export function useFakeClock(start: number) {
  beforeEach(() => {
    vi.useFakeTimers({ now: start })
    resetWarnings()
  })
  afterEach(() => {
    vi.useRealTimers()
    vi.restoreAllMocks()
  })
}

/** Registers the set-up for the file's tests; the returned scene is fresh in each test. */
export function useDeliveryWorld(start: number) {
  let world: World | undefined
  let warnSpy: MockInstance<typeof console.warn> | undefined
  let tabs: Tab[] = []

  useFakeClock(start)

  beforeEach(() => {
    warnSpy = vi.spyOn(console, 'warn').mockImplementation(() => {})
    vi.spyOn(console, 'error').mockImplementation(() => {})
    world = createWorld()
    tabs = []
  })

  // Runs before useFakeClock's clean-up (after-hooks run last registered first).
  afterEach(() => {
    for (const tab of tabs) tab.destroy()
  })

  const scene = {
    get world(): World {
      if (!world) throw new Error('the world exists only inside a test')
      return world
    },
    get warnSpy(): MockInstance<typeof console.warn> {
      if (!warnSpy) throw new Error('the console spy exists only inside a test')
      return warnSpy
    },
    /** A world of other settings (a service with a small rate limit, say) for this test. */
    rebuild(options: Parameters<typeof createWorld>[0]) {
      world = createWorld(options)
    },
    /** Opens a tab that is destroyed after the test whatever happens. */
    open(options: TabOptions = {}): Tab {
      const tab = scene.world.tab(options)
      tabs.push(tab)
      return tab
    },
    /** Opens a tab and lets its start-up requests (campaign) finish, so faults hit /v1/events. */
    async openReady(options: TabOptions = {}): Promise<Tab> {
      const tab = scene.open(options)
      await settle()
      return tab
    },
  }
  return scene
}

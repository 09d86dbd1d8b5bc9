// The set-up every delivery scenario shares: fake time from a fixed instant, one in-process
// service behind a fault injector, quiet consoles, and tabs destroyed after each test.
import { afterEach, beforeEach, type MockInstance, vi } from 'vitest'
import { resetWarnings } from '../../src/shared/log.ts'
import { createWorld } from './harness.ts'

export type World = ReturnType<typeof createWorld>
export type Tab = ReturnType<World['tab']>
export type TabOptions = Parameters<World['tab']>[0]

/** Lets requests, microtasks, messages between tabs and timers due now run; time stands still. */
export async function settle() {
  for (let i = 0; i < 5; i++) await vi.advanceTimersByTimeAsync(0)
}

/** Registers the set-up for the file's tests; the returned scene is fresh in each test. */
export function useDeliveryWorld(start: number) {
  let world: World | undefined
  let warnSpy: MockInstance<typeof console.warn> | undefined
  let tabs: Tab[] = []

  beforeEach(() => {
    vi.useFakeTimers({ now: start })
    resetWarnings()
    warnSpy = vi.spyOn(console, 'warn').mockImplementation(() => {})
    vi.spyOn(console, 'error').mockImplementation(() => {})
    world = createWorld()
    tabs = []
  })

  afterEach(() => {
    for (const tab of tabs) tab.destroy()
    vi.useRealTimers()
    vi.restoreAllMocks()
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

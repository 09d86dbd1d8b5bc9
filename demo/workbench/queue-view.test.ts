// @vitest-environment happy-dom
// The QA page's queue view reads the widget's keys as the widget does: the plain-text keys it
// writes (its own links, the confirmed kept events, the loader's records) are not "unreadable".
import { describe, expect, it } from 'vitest'
import { readQueue } from './queue-view.tsx'

const NS = 'referral:test:abc123:'

describe('readQueue', () => {
  it('shows the plain-text keys as they are, and only a broken chunk or delivery state as unreadable', () => {
    const snapshot = readQueue(
      [
        [`${NS}own`, 'ABCDEFGH.mx1abc'],
        [`${NS}done`, '1768478400000 kept_ya_0_abc'],
        [`${NS}kept:1234.5:0`, '1 1768478400000 n0nce signup u1 -'],
        [`${NS}visitor`, '{"v":1,"id":"v_0123456789abcdefghij"}'],
        [
          `${NS}q:x-1-1`,
          '{"v":1,"events":[{"id":"e_1","type":"click","code":"ABCDEFGH","queuedAt":1,"attempts":0}]}',
        ],
        [`${NS}q:x-1-2`, 'not json'],
        [`${NS}delivery`, '{"v":1,"pausedUntil":"soon"}'],
        ['referral:live:zzz:visitor', '{}'],
      ],
      NS,
    )
    expect(snapshot.broken).toEqual(['q:x-1-2', 'delivery'])
    expect(snapshot.other.map(([name]) => name)).toEqual([
      'own',
      'done',
      'kept:1234.5:0',
      'visitor',
    ])
    expect(snapshot.events.map((event) => event.id)).toEqual(['e_1'])
    expect(snapshot.elsewhere).toBe(1)
  })
})

// What the loader keeps for the tracking part (kept.ts): which calls become a record at all, and
// how the part takes them back: in the order they were kept, each once, broken ones dropped, one
// that cannot be read just now left for a later page, and each event's id the same in any tab.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createMemoryStorage, createSafeStorage, type StorageLike } from '../queue/storage.ts'
import { type Kept, keptKey, keptText, takeKept } from './kept.ts'

const NS = 'referral:test:abc123:'
/** The contract's event id. */
const EVENT_ID = /^[A-Za-z0-9_-]{8,64}$/
/** A page's number as the loader gives it (performance.timeOrigin). */
const PAGE = 1_712_345_678_901.25

function storageWith(records: Record<string, string>) {
  const backing = createMemoryStorage()
  for (const [key, text] of Object.entries(records)) backing.setItem(key, text)
  return { backing, storage: createSafeStorage(backing, { quiet: true }) }
}

/** The text keptText gives, failing the test where it refuses. */
function text(type: string, values: unknown[]): string {
  const written = keptText(type, values)
  if (written === undefined) throw new Error(`keptText refused ${type} ${String(values)}`)
  return written
}

/** What each record says: an arrival's address, a track call's code. */
const codes = (records: Kept[]) =>
  records.map((record) => (record.type === 'arrive' ? record.href : record.properties.code))

const keys = (backing: StorageLike) =>
  Array.from({ length: backing.length }, (_, i) => backing.key(i))

afterEach(() => {
  vi.useRealTimers()
  vi.restoreAllMocks()
})

describe('keptText', () => {
  it('writes arrive, signup and click records, with the time they were kept', () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 })
    expect(keptText('arrive', ['https://shop.test/?ref=ABCD1234'])).toMatch(
      /^1 1700000000000 [\w-]{1,12} arrive https:\/\/shop\.test\/\?ref=ABCD1234$/,
    )
    expect(keptText('signup', ['alice', 'ABCD1234'])).toMatch(/ signup alice ABCD1234$/)
    expect(keptText('click', ['ABCD1234'])).toMatch(/ click ABCD1234$/)
  })

  it('writes a missing value as -', () => {
    expect(keptText('signup', ['alice', undefined])).toMatch(/ signup alice -$/)
    expect(keptText('signup', [undefined, 'ABCD1234'])).toMatch(/ signup - ABCD1234$/)
  })

  it.each([['purchase'], ['identify'], [undefined], [42]])('keeps no %j record', (type) => {
    expect(keptText(type, ['ABCD1234'])).toBeUndefined()
  })

  it.each([
    ['a space', 'alice smith'],
    ['a tab', 'alice\tsmith'],
    ['a leading -', '-alice'],
    ['the placeholder itself', '-'],
    ['empty', ''],
    ['a number', 42],
    ['null', null],
    ['an object', { userId: 'alice' }],
    ['more than 4096 characters', 'a'.repeat(4097)],
  ])('refuses a value that is not a plain word (%s)', (_, value) => {
    expect(keptText('signup', [value, 'ABCD1234'])).toBeUndefined()
    expect(keptText('click', [value])).toBeUndefined()
  })

  it('takes a value of 4096 characters', () => {
    expect(keptText('click', ['a'.repeat(4096)])).toBeDefined()
  })
})

describe('takeKept', () => {
  it('gives the records by page, then by number, whatever order storage lists them in', () => {
    const { storage } = storageWith({
      [keptKey(NS, 2, 10)]: text('click', ['CODE0210']),
      [keptKey(NS, 2, 9)]: text('click', ['CODE0209']),
      [keptKey(NS, 1, 0)]: text('click', ['CODE0100']),
      [keptKey(NS, 2, 0)]: text('click', ['CODE0200']),
    })
    expect(codes(takeKept(storage, NS))).toEqual(['CODE0100', 'CODE0200', 'CODE0209', 'CODE0210'])
  })

  it('reads each kind back with the values kept and the time', () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 })
    const { storage } = storageWith({
      [keptKey(NS, PAGE, 0)]: text('arrive', ['https://shop.test/?ref=ABCD1234']),
      [keptKey(NS, PAGE, 1)]: text('signup', ['alice', 'ABCD1234']),
      [keptKey(NS, PAGE, 2)]: text('signup', ['bob', undefined]),
      [keptKey(NS, PAGE, 3)]: text('signup', [undefined, 'ABCD1234']),
      [keptKey(NS, PAGE, 4)]: text('click', ['EFGH5678']),
      // A click without a code: kept as the call was, for the tracking part to say what is missing.
      [keptKey(NS, PAGE, 5)]: text('click', [undefined]),
    })
    const taken = takeKept(storage, NS)
    expect(taken.map(({ id: _, at: __, page: ___, ...record }) => record)).toEqual([
      { type: 'arrive', href: 'https://shop.test/?ref=ABCD1234', n: 0 },
      { type: 'signup', properties: { userId: 'alice', code: 'ABCD1234' }, n: 1 },
      { type: 'signup', properties: { userId: 'bob' }, n: 2 },
      { type: 'signup', properties: { code: 'ABCD1234' }, n: 3 },
      { type: 'click', properties: { code: 'EFGH5678' }, n: 4 },
      { type: 'click', properties: {}, n: 5 },
    ])
    for (const record of taken) {
      expect(record.at).toBe(1_700_000_000_000)
      expect(record.page).toBe(PAGE)
      expect(record.id).toMatch(EVENT_ID)
    }
  })

  it('removes every record it reads: the second take finds nothing', () => {
    const { backing, storage } = storageWith({
      [keptKey(NS, PAGE, 0)]: text('click', ['ABCD1234']),
      [keptKey(NS, PAGE, 1)]: text('signup', ['alice', undefined]),
      'referral:test:other:kept:1:0': text('click', ['ABCD1234']),
      [`${NS}visitor`]: '{"v":1}',
    })
    expect(takeKept(storage, NS)).toHaveLength(2)
    expect(takeKept(storage, NS)).toEqual([])
    // Another namespace's records and the widget's other keys are left alone.
    expect(keys(backing).sort()).toEqual([`${NS}visitor`, 'referral:test:other:kept:1:0'])
  })

  it.each([
    ['another version', '2 1700000000000 abc click ABCD1234'],
    ['a time that is no number', '1 soon abc click ABCD1234'],
    ['a time of 16 digits', '1 1234567890123456 abc click ABCD1234'],
    ['an unknown type', '1 1700000000000 abc purchase ABCD1234'],
    ['an arrival at a script address', '1 1700000000000 abc arrive javascript:alert(1)'],
    ['an arrival at no address', '1 1700000000000 abc arrive shop.test'],
    ['no value', '1 1700000000000 abc click'],
    ['a nonce too long', '1 1700000000000 abcdefghijklm click ABCD1234'],
    ['garbage', '{"type":"click","code":"ABCD1234"}'],
    ['nothing', ''],
  ])('removes a broken record and skips it (%s)', (_, broken) => {
    const { backing, storage } = storageWith({
      [keptKey(NS, PAGE, 0)]: broken,
      [keptKey(NS, PAGE, 1)]: text('click', ['ABCD1234']),
    })
    expect(codes(takeKept(storage, NS))).toEqual(['ABCD1234'])
    expect(keys(backing)).toEqual([])
  })

  it('removes a record under a key without a page number', () => {
    const { backing, storage } = storageWith({ [`${NS}kept:x:0`]: text('click', ['ABCD1234']) })
    expect(takeKept(storage, NS)).toEqual([])
    expect(keys(backing)).toEqual([])
  })

  it('leaves a record it cannot read just now for a later page', () => {
    const { backing, storage } = storageWith({
      [keptKey(NS, PAGE, 0)]: text('click', ['CODE0000']),
      [keptKey(NS, PAGE, 1)]: text('click', ['CODE0001']),
    })
    const unreadable = keptKey(NS, PAGE, 0)
    const get = storage.get
    vi.spyOn(storage, 'get').mockImplementation((key) =>
      key === unreadable ? undefined : get(key),
    )

    expect(codes(takeKept(storage, NS))).toEqual(['CODE0001'])
    expect(keys(backing)).toEqual([unreadable])

    vi.mocked(storage.get).mockRestore()
    expect(codes(takeKept(storage, NS))).toEqual(['CODE0000'])
  })
})

describe("a kept record's event id", () => {
  it('is the same in whichever tab takes the record', () => {
    const key = keptKey(NS, PAGE, 3)
    const record = text('signup', ['alice', undefined])
    // Two tabs start at once: both read the record before either removed it.
    const tabA = storageWith({ [key]: record }).storage
    const tabB = storageWith({ [key]: record }).storage
    const [a] = takeKept(tabA, NS)
    const [b] = takeKept(tabB, NS)
    expect(a?.id).toMatch(EVENT_ID)
    expect(b?.id).toBe(a?.id)
  })

  it('differs between two records, of one page or of two', () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.5) // even with the same nonce
    const same = text('click', ['ABCD1234'])
    const { storage } = storageWith({
      [keptKey(NS, PAGE, 0)]: same,
      [keptKey(NS, PAGE, 1)]: same,
      [keptKey(NS, PAGE + 1000, 0)]: same,
    })
    const ids = takeKept(storage, NS).map((record) => record.id)
    expect(new Set(ids).size).toBe(3)
  })

  it('differs between two pages kept at the same time, by their nonce', () => {
    const { storage } = storageWith({ [keptKey(NS, PAGE, 0)]: text('click', ['ABCD1234']) })
    const [first] = takeKept(storage, NS)
    storage.set(keptKey(NS, PAGE, 0), text('click', ['ABCD1234']))
    const [second] = takeKept(storage, NS)
    expect(second?.id).not.toBe(first?.id)
  })

  it.each([
    ['0', 0],
    ['NaN', Number.NaN],
    ['1e300', 1e300],
    ['a negative number', -0.75],
    ['just under 1', 1 - 2 ** -53],
  ])('is still a contract id where Math.random gives %s', (_, value) => {
    vi.spyOn(Math, 'random').mockReturnValue(value)
    const written = keptText('signup', ['alice', 'ABCD1234'])
    vi.mocked(Math.random).mockRestore()

    const { storage } = storageWith({ [keptKey(NS, PAGE, 0)]: written ?? 'refused' })
    const taken = takeKept(storage, NS)
    expect(taken).toHaveLength(1)
    expect(taken[0]).toMatchObject({ properties: { userId: 'alice', code: 'ABCD1234' } })
    expect(taken[0]?.id).toMatch(EVENT_ID)
  })

  // Stored data is checked when read: a key the loader never writes (a number that is no integer,
  // an empty one, an exponent) must give a contract id or be refused, or the service refuses the
  // event it makes.
  it.each([
    ['a fractional number', `${NS}kept:1712345678901:0.5`],
    ['an exponent', `${NS}kept:1712345678901:1e21`],
    ['a huge page', `${NS}kept:1e300:0`],
    ['empty numbers', `${NS}kept::`],
  ])('is a contract id, or the record is refused, under a key of %s', (_, key) => {
    const { storage } = storageWith({ [key]: '1 1700000000000 0 click ABCD1234' })
    for (const record of takeKept(storage, NS)) expect(record.id).toMatch(EVENT_ID)
  })
})

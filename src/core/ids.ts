const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'

let pool = new Uint32Array(0)
let next = 0

/** Uniform in [0, 1): crypto when the page has it, drawn 256 values at a time (bursts stay cheap). */
export function defaultRandom(): number {
  const cryptoApi = globalThis.crypto
  if (!cryptoApi?.getRandomValues) return Math.random()
  if (next >= pool.length) {
    pool = cryptoApi.getRandomValues(new Uint32Array(256))
    next = 0
  }
  return (pool[next++] ?? 0) / 2 ** 32
}

/** An id of the contract's client-id shape: prefix, underscore, 20 random letters and digits. */
export function randomId(prefix: string, random: () => number): string {
  let id = `${prefix}_`
  for (let i = 0; i < 20; i++)
    id += ALPHABET[Math.floor(random() * ALPHABET.length) % ALPHABET.length]
  return id
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'

/** Uniform in [0, 1): crypto when the page has it. */
export function defaultRandom(): number {
  const cryptoApi = globalThis.crypto
  if (cryptoApi?.getRandomValues)
    return (cryptoApi.getRandomValues(new Uint32Array(1))[0] ?? 0) / 2 ** 32
  return Math.random()
}

/** An id of the contract's client-id shape: prefix, underscore, 20 random letters and digits. */
export function randomId(prefix: string, random: () => number): string {
  let id = `${prefix}_`
  for (let i = 0; i < 20; i++)
    id += ALPHABET[Math.floor(random() * ALPHABET.length) % ALPHABET.length]
  return id
}

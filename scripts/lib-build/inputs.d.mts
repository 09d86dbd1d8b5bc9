// Types of inputs.mjs, for the TypeScript that imports it (the tests' second build).
export function sha256(bytes: string | Uint8Array): string
export function filesUnder(dir: string): string[]
export function paths(base: string, files: string[]): string[]
export function resolvedVersions(lockText: string): string
export function inputsHash(root?: string): string
export function buildId(root?: string): string

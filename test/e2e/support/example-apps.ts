// Apps made of the README's examples (docs/examples/), as users copy them, built against the built
// package the way an installed copy resolves (scripts/consumers.mjs lays out node_modules), and
// served by the host origin.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { build, type InlineConfig } from 'vite'
import { consumerDir } from '../../../scripts/consumers.mjs'
import type { HostOrigin } from './harness.ts'

export const EXAMPLES = join(import.meta.dirname, '../../../docs/examples')
const PLACEHOLDER = 'https://YOUR-SERVICE'

/** An example's text as a user pastes it, with the service's address for its placeholder. */
export function example(file: string, serviceUrl?: string): string {
  const text = readFileSync(join(EXAMPLES, file), 'utf8')
  if (serviceUrl === undefined) return text
  if (!text.includes(PLACEHOLDER)) throw new Error(`docs/examples/${file} names no ${PLACEHOLDER}`)
  return text.replaceAll(PLACEHOLDER, serviceUrl)
}

/** A page that mounts the app's entry in `<div id="app">`, after `body` (markup). */
export const appPage = (entry: string, body = '') =>
  `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Shop</title></head>
<body>
<div id="app"></div>
${body}
<script type="module" src="/${entry}"></script>
</body>
</html>
`

export interface ExampleApp {
  /** The app's files by path, `index.html` among them. */
  files: Record<string, string>
  /** The packages the app installed (see consumerDir). */
  packages: Record<string, string>
  /** More Vite configuration: a configFile, how JSX is compiled. */
  config?: InlineConfig
}

export interface BuiltFile {
  path: string
  body: string
}

/** Builds the app for production with Vite; returns what it would deploy. */
export async function buildApp(app: ExampleApp): Promise<BuiltFile[]> {
  const dir = consumerDir(app.packages)
  try {
    for (const [path, text] of Object.entries(app.files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true })
      writeFileSync(join(dir, path), text)
    }
    const result = await build({
      configFile: false,
      ...app.config,
      root: dir,
      logLevel: 'silent',
      define: { 'process.env.NODE_ENV': '"production"' },
      build: { write: false, target: 'es2022' },
    })
    const outputs = (Array.isArray(result) ? result : [result]).flatMap((each) =>
      'output' in each ? each.output : [],
    )
    return outputs.map((file) => ({
      path: `/${file.fileName}`,
      body:
        file.type === 'chunk'
          ? file.code
          : typeof file.source === 'string'
            ? file.source
            : Buffer.from(file.source).toString('utf8'),
    }))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
}

/** Serves the built app on the host origin; returns its page's address (`?query` added). */
export function serveApp(host: HostOrigin, files: BuiltFile[], query = ''): string {
  for (const { path, body } of files) {
    const type = TYPES[/\.[a-z]+$/.exec(path)?.[0] ?? ''] ?? 'application/octet-stream'
    host.page(path === '/index.html' ? '/' : path, { html: body, type })
  }
  return `${host.url}/${query}`
}

// Declarations keep the sources' `.ts` import specifiers; consumers resolve `.js`.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

function walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) walk(path)
    else if (path.endsWith('.d.ts')) {
      const text = readFileSync(path, 'utf8')
      writeFileSync(
        path,
        text
          .replace(/(from\s+['"]\.{1,2}\/[^'"]+)\.tsx?(['"])/g, '$1.js$2')
          .replace(/(import\(['"]\.{1,2}\/[^'"]+)\.tsx?(['"]\))/g, '$1.js$2'),
      )
    }
  }
}
walk(process.argv[2] ?? 'dist/types')

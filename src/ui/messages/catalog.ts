// Every built-in language. The script tag's per-language UI files replace this module with one
// that lists a single language (vite.lib.config.ts), so each carries only its own messages.
import { ar } from './ar.ts'
import { de } from './de.ts'
import { en } from './en.ts'
import { es } from './es.ts'
import { fr } from './fr.ts'
import { it } from './it.ts'
import { ja } from './ja.ts'
import { ko } from './ko.ts'
import type { Messages } from './messages.ts'
import { nl } from './nl.ts'
import { pl } from './pl.ts'
import { ptBR } from './pt-BR.ts'
import { zhCN } from './zh-CN.ts'

export const CATALOG: Record<string, Messages> = {
  en,
  de,
  fr,
  es,
  ja,
  ar,
  'pt-BR': ptBR,
  it,
  nl,
  pl,
  'zh-CN': zhCN,
  ko,
}

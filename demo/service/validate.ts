import type * as z from 'zod/mini'
import { invalid, type ServiceError } from './errors.ts'

type Issue = z.core.$ZodIssue

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** The value at `path` inside `input`, to tell "missing" from "wrong". */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current = input
  for (const step of path) {
    if (isObject(current) && Object.hasOwn(current, step as string)) {
      current = current[step as string]
    } else if (Array.isArray(current) && typeof step === 'number') {
      current = current[step]
    } else {
      return undefined
    }
  }
  return current
}

const describeType = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`

function explain(issue: Issue, input: unknown): { code: string; message: string; param: string } {
  const param = issue.path.map(String).join('.')
  const field = param || 'the body'
  if (issue.code !== 'unrecognized_keys' && valueAt(input, issue.path) === undefined) {
    return { code: 'parameter_missing', message: `${field} is required.`, param }
  }
  switch (issue.code) {
    case 'unrecognized_keys': {
      const key = issue.keys[0] ?? ''
      const full = param ? `${param}.${key}` : key
      return { code: 'parameter_unknown', message: `Unknown field: ${full}.`, param: full }
    }
    case 'invalid_type':
      return {
        code: 'parameter_invalid',
        message: `${field} must be ${article(issue.expected)}, not ${describeType(valueAt(input, issue.path))}.`,
        param,
      }
    case 'invalid_value':
      return {
        code: 'parameter_invalid',
        message: `${field} must be ${issue.values.map((v) => JSON.stringify(v)).join(' or ')}.`,
        param,
      }
    case 'too_small':
      return {
        code: 'parameter_invalid',
        message:
          issue.origin === 'string'
            ? `${field} must be at least ${issue.minimum} characters long.`
            : `${field} must be ${issue.inclusive ? 'at least' : 'greater than'} ${issue.minimum}.`,
        param,
      }
    case 'too_big':
      return {
        code: 'parameter_invalid',
        message:
          issue.origin === 'string'
            ? `${field} must be at most ${issue.maximum} characters long.`
            : `${field} must be at most ${issue.maximum}.`,
        param,
      }
    case 'invalid_format':
      return { code: 'parameter_invalid', message: `${field} has an invalid format.`, param }
    default:
      return {
        code: 'parameter_invalid',
        message:
          issue.message && issue.message !== 'Invalid input'
            ? `${field} ${issue.message}.`
            : `${field} is invalid.`,
        param,
      }
  }
}

const article = (expected: string) =>
  expected === 'int' ? 'an integer' : /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`

/** The first problem of a failed parse, as the contract's 400 answer. */
export function validationError(issues: readonly Issue[], input: unknown): ServiceError {
  const first = issues[0]
  if (!first) return invalid('parameter_invalid', 'The request is invalid.')
  const { code, message, param } = explain(first, input)
  return invalid(code, message, param || undefined)
}

/** Parses `input` with `schema`, or throws the contract's 400 for its first problem. */
export function parseOrThrow<S extends z.ZodMiniType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input)
  if (result.success) return result.data
  throw validationError(result.error.issues, input)
}

/** Like validationError, without throwing: for per-event results. */
export function describeFirstIssue(issues: readonly Issue[], input: unknown) {
  const first = issues[0]
  return first
    ? explain(first, input)
    : { code: 'parameter_invalid', message: 'Invalid.', param: '' }
}

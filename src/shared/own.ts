/**
 * A copy of `value`'s own enumerable properties on an object with no prototype. Reading a field
 * it lacks gives undefined, whatever the page added to Object.prototype: options, request
 * settings and the dictionaries the browser reads (fetch's init, a lock's options) are made
 * with it, so a polluted prototype cannot add a `body`, a `signal` or an option of ours.
 */
export const own = <T extends object>(value: T): T => Object.assign(Object.create(null), value)

// Stands in for the site's own sign-up, which server/signup.ts calls.
export async function createUser(form: FormData): Promise<{ id: string }> {
  if (typeof form.get('email') !== 'string') throw new Error('An email address is needed.')
  return { id: `user_${crypto.randomUUID()}` }
}

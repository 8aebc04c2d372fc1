/** Spec §5: the button is disabled unless both fields are filled (reset: the username), or while loading. */
export function canSubmitLogin(mode: 'signIn' | 'reset', username: string, password: string, loading: boolean): boolean {
  if (loading) return false;
  if (!username.trim()) return false;
  return mode === 'reset' || password.length > 0;
}

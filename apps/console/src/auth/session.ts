/**
 * Where the signed-in key lives: sessionStorage only, so it dies with the browser tab and never
 * reaches localStorage or a cookie.
 */
const KEY = 'toolgate.console.apiKey';

export function readSessionKey(): string | null {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function writeSessionKey(key: string): void {
  sessionStorage.setItem(KEY, key);
}

export function clearSessionKey(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    /* nothing stored */
  }
}

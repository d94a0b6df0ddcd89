import { VideoJobs } from '@vj/sdk';

// The API key lives in this tab's sessionStorage only: never localStorage or a cookie, so it is gone
// when the tab closes and is never sent anywhere but the API's Authorization header.
const STORAGE_KEY = 'vj.api-key';

export function storedApiKey(): string | null {
  try {
    return sessionStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

export function storeApiKey(apiKey: string): void {
  try {
    sessionStorage.setItem(STORAGE_KEY, apiKey);
  } catch {
    // Storage refused (private mode quotas): the key then lasts until the page reloads.
  }
}

export function forgetApiKey(): void {
  try {
    sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // Nothing was stored.
  }
}

// The page is served by the gateway, so the API is this origin.
export function clientFor(apiKey: string): VideoJobs {
  return new VideoJobs({ apiKey, baseUrl: window.location.origin });
}

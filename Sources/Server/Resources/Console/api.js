// The console's one way to the server: same-origin fetch, JSON in and out, problem+json errors.

/** A refusal from the server, carrying its problem+json body when there is one. */
export class ApiError extends Error {
  constructor(status, problem) {
    super(problem?.detail ?? `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
  }
}

/**
 * Calls the server. `tenant` becomes X-Tenant-ID, `query` the query string (empty values left out),
 * `body` JSON. Resolves to the parsed body (null for 204), rejects with ApiError.
 */
export async function api(method, path, { tenant, query, body } = {}) {
  const url = new URL(path, location.origin);
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') url.searchParams.set(name, String(value));
  }
  const headers = { Accept: 'application/json' };
  if (tenant) headers['X-Tenant-ID'] = tenant;
  const init = { method, headers, credentials: 'same-origin', cache: 'no-store' };
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const response = await fetch(url, init);
  const text = await response.text();
  let data = null;
  if (text) {
    try { data = JSON.parse(text); } catch { data = null; }
  }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

/** The newest 100 accounts of `tenant` (the pickers of Act as a user and Explain). */
export async function tenantUsers(tenant) {
  const page = await api('GET', `/__dev/tenants/${encodeURIComponent(tenant)}/users`, { query: { limit: 100 } });
  return page.items;
}

/**
 * Runs `task` now and then `interval` ms after each run ends (never overlapping).
 * `task` may return false to skip (e.g. while paused); errors are passed to `onError`.
 */
export function poll(task, interval, onError = () => {}) {
  let timer = null;
  const run = async () => {
    try {
      if (!document.hidden) await task();
    } catch (error) {
      onError(error);
    }
    timer = setTimeout(run, interval);
  };
  run();
  return () => clearTimeout(timer);
}

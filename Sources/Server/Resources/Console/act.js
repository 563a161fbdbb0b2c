// Act as a user: pick a user of the selected tenant and call the API as them, with a token the dev
// backend mints for that user (POST /__dev/tenants/{id}/users/{userId}/token); the answer is shown.
import { api, tenantUsers } from './api.js';
import { fill, userOption, describe } from './dom.js';

export function start(context) {
  const form = document.getElementById('act-form');
  const users = document.getElementById('act-user');
  const tenantName = document.getElementById('act-tenant');
  const status = document.getElementById('act-status');
  const answer = document.getElementById('act-answer');

  context.onTenantChange(load);

  async function load(tenant) {
    tenantName.textContent = tenant;
    fill(users);
    answer.hidden = true;
    status.textContent = '';
    if (!tenant) return;
    try {
      fill(users, (await tenantUsers(tenant)).map(userOption));
    } catch (error) {
      status.textContent = describe(error);
    }
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const tenant = context.tenant;
    const data = new FormData(form);
    const text = String(data.get('body') ?? '').trim();
    let body;
    if (text) {
      try { body = JSON.parse(text); } catch { status.textContent = 'The body is not JSON.'; return; }
    }
    const button = document.getElementById('act-send');
    button.disabled = true;
    status.textContent = 'Sending…';
    try {
      const minted = await api('POST', `/__dev/tenants/${encodeURIComponent(tenant)}/users/${encodeURIComponent(data.get('user'))}/token`);
      const response = await callAs(minted.access_token, tenant, String(data.get('method')), String(data.get('path')), body);
      status.textContent = `${response.status} as ${minted.user.email} (${minted.user.role})`;
      status.dataset.status = String(response.status);
      answer.textContent = response.text;
      answer.hidden = false;
    } catch (error) {
      status.textContent = describe(error);
    } finally {
      button.disabled = false;
    }
  });
}

/** One call with the minted token; resolves to the status and the body, pretty-printed when JSON. */
async function callAs(token, tenant, method, path, body) {
  const headers = { Accept: 'application/json', Authorization: `Bearer ${token}`, 'X-Tenant-ID': tenant };
  const init = { method, headers, credentials: 'omit', cache: 'no-store' };
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const response = await fetch(new URL(path, location.origin), init);
  let text = await response.text();
  try { text = JSON.stringify(JSON.parse(text), null, 2); } catch { /* not JSON: shown as sent */ }
  return { status: response.status, text };
}

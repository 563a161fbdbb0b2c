// Tenants: the list, "new test tenant" with its accounts, and a tenant's accounts.
import { api } from './api.js';
import { h, fill, copyButton, dateTime } from './dom.js';

export function start(context) {
  const body = document.querySelector('#tenant-table tbody');
  const created = document.getElementById('created-tenant');
  const users = document.getElementById('tenant-users');
  const newButton = document.getElementById('new-tenant');

  context.onTenantsChange((list) => {
    fill(body, list.map((tenant) => h('tr', { 'data-tenant': tenant.id },
      h('td', {}, h('code', {}, tenant.id)),
      h('td', {}, tenant.name),
      h('td', { class: 'num' }, tenant.user_count),
      h('td', { class: 'num' }, tenant.open_streams),
      h('td', {}, dateTime(tenant.created_at)),
      // A restore or an import starts a new timeline: devices that synced before resync.
      h('td', { class: 'timeline', title: `Timeline ${tenant.timeline}` },
        h('code', {}, tenant.timeline.slice(0, 8)), ' since ', tenant.timeline_started_at ? dateTime(tenant.timeline_started_at) : '—'),
      h('td', {},
        h('button', { type: 'button', class: 'small', 'aria-label': `Use tenant ${tenant.id}`, onclick: () => context.select(tenant.id) }, 'Use'),
        ' ',
        h('button', { type: 'button', class: 'small', 'aria-label': `Show the accounts of ${tenant.id}`, onclick: () => showUsers(tenant.id) }, 'Accounts')))));
  });

  newButton.addEventListener('click', async () => {
    newButton.disabled = true;
    try {
      const tenant = await api('POST', '/__dev/tenants');
      fill(created,
        h('h3', {}, 'Created ', h('code', { id: 'created-tenant-id' }, tenant.tenant_id)),
        h('div', { class: 'scroll' }, h('table', { class: 'accounts' },
          h('caption', { class: 'visually-hidden' }, 'Accounts of the new tenant'),
          h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Role'), h('th', { scope: 'col' }, 'Email'), h('th', { scope: 'col' }, 'Password'))),
          h('tbody', {}, tenant.accounts.map((account) => h('tr', { 'data-role': account.role },
            h('td', {}, account.role),
            h('td', {}, h('span', { class: 'copy-cell' }, h('code', { class: 'email' }, account.email), copyButton(account.email, `${account.role} email`))),
            h('td', {}, h('span', { class: 'copy-cell' }, h('code', { class: 'password' }, account.password), copyButton(account.password, `${account.role} password`)))))))));
      created.hidden = false;
      await context.reloadTenants();
      context.select(tenant.tenant_id);
      context.say(`Created tenant ${tenant.tenant_id}.`);
    } catch (error) {
      context.fail(error);
    } finally {
      newButton.disabled = false;
    }
  });

  document.getElementById('reload-tenants').addEventListener('click', () => context.reloadTenants().catch(context.fail));

  async function showUsers(id) {
    try {
      const page = await api('GET', `/__dev/tenants/${encodeURIComponent(id)}/users`, { query: { limit: 100 } });
      fill(users,
        h('h3', {}, 'Accounts of ', h('code', {}, id), ` (${page.total})`),
        h('div', { class: 'scroll' }, h('table', { id: 'tenant-user-table' },
          h('thead', {}, h('tr', {}, ['Name', 'Email', 'Role', 'Verified'].map((title) => h('th', { scope: 'col' }, title)))),
          h('tbody', {}, page.items.map((user) => h('tr', {},
            h('td', { class: 'user-name' }, `${user.first_name} ${user.last_name}`),
            h('td', {}, h('span', { class: 'copy-cell' }, h('code', {}, user.email), copyButton(user.email, 'email'))),
            h('td', {}, user.role),
            h('td', {}, user.email_verified ? 'yes' : 'no')))))));
      users.hidden = false;
    } catch (error) {
      context.fail(error);
    }
  }
}

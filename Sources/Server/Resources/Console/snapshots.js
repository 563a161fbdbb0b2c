// Snapshots: the selected tenant's saved states; save one, put one back, delete one.
import { api } from './api.js';
import { h, fill, dateTime } from './dom.js';

export function start(context) {
  const body = document.querySelector('#snapshot-table tbody');
  const title = document.getElementById('snapshots-tenant');
  const saveButton = document.getElementById('save-snapshot');

  context.onTenantChange(() => refresh().catch(context.fail));

  saveButton.addEventListener('click', async () => {
    const tenant = context.tenant;
    if (!tenant) return;
    saveButton.disabled = true;
    try {
      const snapshot = await api('POST', `${base(tenant)}/snapshots`);
      context.say(`Saved snapshot ${snapshot.id} of ${tenant}.`);
      await refresh();
    } catch (error) {
      context.fail(error);
    } finally {
      saveButton.disabled = false;
    }
  });

  async function restore(tenant, id) {
    try {
      await api('POST', `${base(tenant)}/restore`, { body: { snapshot_id: id } });
      context.say(`Restored ${tenant} to snapshot ${id}.`);
      await context.reloadTenants();
    } catch (error) {
      context.fail(error);
    }
  }

  async function remove(tenant, id) {
    try {
      await api('DELETE', `${base(tenant)}/snapshots/${encodeURIComponent(id)}`);
      context.say(`Deleted snapshot ${id} of ${tenant}.`);
      await refresh();
    } catch (error) {
      context.fail(error);
    }
  }

  async function refresh() {
    const tenant = context.tenant;
    fill(title, tenant ? h('code', {}, tenant) : 'no tenant');
    if (!tenant) { fill(body); return; }
    const list = await api('GET', `${base(tenant)}/snapshots`);
    if (tenant !== context.tenant) return;
    fill(body, list.items.map((snapshot) => h('tr', { 'data-snapshot': snapshot.id },
      h('td', {}, h('code', {}, snapshot.id)),
      h('td', {}, dateTime(snapshot.created_at)),
      h('td', { class: 'num' }, `${(snapshot.size_bytes / 1024).toFixed(0)} KiB`),
      h('td', {},
        h('button', { type: 'button', class: 'small', 'aria-label': `Restore snapshot ${snapshot.id}`, onclick: () => restore(tenant, snapshot.id) }, 'Restore'),
        ' ',
        h('button', { type: 'button', class: 'small secondary', 'aria-label': `Delete snapshot ${snapshot.id}`, onclick: () => remove(tenant, snapshot.id) }, 'Delete')))));
  }
}

function base(tenant) {
  return `/__dev/tenants/${encodeURIComponent(tenant)}`;
}

// Faults: the selected tenant's rules with how often each fired; arm and delete.
import { api, poll } from './api.js';
import { h, fill } from './dom.js';

export function start(context) {
  const form = document.getElementById('fault-form');
  const errors = document.getElementById('fault-errors');
  const body = document.querySelector('#fault-table tbody');
  let shown = '';

  context.onTenantChange(() => { shown = ''; refresh().catch(context.fail); });

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    errors.replaceChildren();
    const fields = new FormData(form);
    const rule = { path: String(fields.get('path')), action: String(fields.get('action')) };
    if (fields.get('method')) rule.method = String(fields.get('method'));
    for (const name of ['status', 'delay_ms', 'times']) {
      const value = String(fields.get(name) ?? '').trim();
      if (value !== '') rule[name] = Number(value);
    }
    const probability = String(fields.get('probability') ?? '').trim();
    if (probability !== '') rule.probability = Number(probability);
    if (rule.action !== 'status') delete rule.status;
    try {
      const created = await api('POST', '/__dev/faults', { tenant: context.tenant, body: rule });
      context.say(`Armed fault ${created.id} for ${context.tenant}.`);
      await refresh();
    } catch (error) {
      const list = error.problem?.errors?.map((e) => `${e.field}: ${e.message}`) ?? [error.message];
      fill(errors, list.map((message) => h('li', {}, message)));
    }
  });

  document.getElementById('delete-faults').addEventListener('click', async () => {
    try {
      await api('DELETE', '/__dev/faults', { tenant: context.tenant });
      context.say(`Deleted every fault of ${context.tenant}.`);
      await refresh();
    } catch (error) {
      context.fail(error);
    }
  });

  async function remove(id) {
    try {
      await api('DELETE', `/__dev/faults/${encodeURIComponent(id)}`, { tenant: context.tenant });
      await refresh();
    } catch (error) {
      context.fail(error);
    }
  }

  async function refresh() {
    const tenant = context.tenant;
    if (!tenant) return;
    const list = await api('GET', '/__dev/faults', { tenant });
    const key = tenant + JSON.stringify(list.items);
    if (key === shown) return;
    shown = key;
    fill(body, list.items.map((rule) => h('tr', { 'data-rule': rule.id, 'data-fired': rule.fired },
      h('td', {}, h('code', {}, rule.id)),
      h('td', {}, rule.method ?? 'any'),
      h('td', {}, h('code', {}, rule.path)),
      h('td', {}, rule.action === 'status' ? `status ${rule.status}` : rule.action,
        rule.delay_ms ? ` +${rule.delay_ms} ms` : ''),
      h('td', { class: 'num' }, rule.times ?? '∞'),
      h('td', { class: 'num' }, rule.probability),
      h('td', { class: 'num fired' }, rule.fired),
      h('td', {}, rule.active ? 'yes' : 'retired'),
      h('td', {}, h('button', { type: 'button', class: 'small', 'aria-label': `Delete fault ${rule.id}`, onclick: () => remove(rule.id) }, 'Delete')))));
  }

  poll(refresh, 1500, () => {});
}

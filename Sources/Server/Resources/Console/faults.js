// Faults: the selected tenant's rules with how often each fired; arm and delete.
import { api, poll } from './api.js';
import { h, fill } from './dom.js';

export function start(context) {
  const form = document.getElementById('fault-form');
  const errors = document.getElementById('fault-errors');
  const body = document.querySelector('#fault-table tbody');
  let shown = '';

  context.onTenantChange(() => { shown = ''; refresh().catch(context.fail); });

  // Only the fields of the chosen action and wait are shown, and only shown fields are sent.
  function showFields() {
    const action = form.elements.action.value;
    const wait = form.elements.wait.value;
    for (const label of form.querySelectorAll('[data-actions]')) {
      label.hidden = !label.dataset.actions.split(' ').includes(action);
    }
    for (const label of form.querySelectorAll('[data-wait]')) label.hidden = label.dataset.wait !== wait;
  }
  form.elements.action.addEventListener('change', showFields);
  form.elements.wait.addEventListener('change', showFields);
  showFields();

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    errors.replaceChildren();
    const fields = new FormData(form);
    const rule = { path: String(fields.get('path')), action: String(fields.get('action')) };
    if (fields.get('method')) rule.method = String(fields.get('method'));
    const numbers = ['status', 'delay_ms', 'min_ms', 'max_ms', 'median_ms', 'sigma', 'chunks', 'duration_ms', 'bytes',
      'times', 'probability', 'seed'];
    for (const name of numbers) {
      if (form.elements[name].closest('label').hidden) continue;
      const value = String(fields.get(name) ?? '').trim();
      if (value !== '') rule[name] = Number(value);
    }
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
      h('td', {}, describe(rule)),
      h('td', { class: 'num' }, rule.times ?? '∞'),
      h('td', { class: 'num' }, rule.probability),
      h('td', { class: 'num fired' }, rule.fired),
      h('td', {}, rule.active ? 'yes' : 'retired'),
      h('td', {}, h('button', { type: 'button', class: 'small', 'aria-label': `Delete fault ${rule.id}`, onclick: () => remove(rule.id) }, 'Delete')))));
  }

  poll(refresh, 1500, () => {});
}

// The rule's action with its parameters and wait, as text.
function describe(rule) {
  let text = rule.action === 'status' ? `status ${rule.status}` : rule.action;
  if (rule.action === 'slow_body') text += ` ${rule.chunks} chunks over ${rule.duration_ms} ms`;
  if (rule.bytes != null) text += ` ${rule.bytes} B`;
  if (rule.delay_ms) text += ` +${rule.delay_ms} ms`;
  if (rule.min_ms != null) text += ` +${rule.min_ms}–${rule.max_ms} ms`;
  if (rule.median_ms != null) text += ` +~${rule.median_ms} ms (σ ${rule.sigma})`;
  return text;
}

// Change feed: the selected tenant's devices with an open live stream and where each stands
// (GET /__dev/tenants/{id}/devices); its change log, newest first, with its timeline; and Explain,
// whether a user's device should hold an entity and why not (GET /__dev/tenants/{id}/explain).
import { api, poll, tenantUsers } from './api.js';
import { h, fill, time, dateTime, duration, userOption, describe } from './dom.js';

export function start(context) {
  const body = document.querySelector('#feed-table tbody');
  const deviceBody = document.querySelector('#device-table tbody');
  const deviceSummary = document.getElementById('devices-summary');
  const summary = document.getElementById('feed-summary');
  const form = document.getElementById('explain-form');
  const users = document.getElementById('explain-user');
  const result = document.getElementById('explain-result');
  let shown = '';

  context.onTenantChange((tenant) => {
    shown = '';
    fill(result);
    refresh().catch(() => {});
    loadUsers(tenant).catch((error) => { result.textContent = describe(error); });
  });

  async function refresh() {
    const tenant = context.tenant;
    if (!tenant) return;
    await refreshDevices(tenant);
    const log = await api('GET', `/__dev/tenants/${encodeURIComponent(tenant)}/changes`, { query: { limit: 100 } });
    const key = `${tenant}|${log.timeline}|${log.head}|${log.items.map((e) => `${e.seq}:${e.exists}`).join(',')}`;
    if (key === shown) return;  // unchanged: keep focus and selection where they are
    shown = key;
    const since = log.timeline_started_at ? ` since ${dateTime(log.timeline_started_at)}` : '';
    summary.textContent = `${tenant}: timeline ${log.timeline.slice(0, 8)}${since}; head ${log.head}; pruned through ${log.pruned_through}; the newest ${log.items.length} entries.`;
    fill(body, log.items.map((entry) => h('tr', { 'data-seq': entry.seq, 'data-entity': entry.entity, 'data-id': entry.entity_id, class: entry.exists ? '' : 'gone' },
      h('td', { class: 'num' }, entry.seq),
      h('td', {}, time(entry.changed_at)),
      h('td', {}, entry.entity),
      h('td', { class: 'operation' }, entry.operation ?? '—'),
      h('td', {}, h('code', {}, entry.entity_id)),
      h('td', {}, entry.course_id ? h('code', {}, entry.course_id) : '—'),
      h('td', {}, entry.user_id ? h('code', {}, entry.user_id) : '—'),
      h('td', {}, entry.draft_of ? h('code', {}, entry.draft_of) : '—'),
      h('td', {}, entry.exists ? 'exists' : 'gone'),
      h('td', {}, h('button', {
        type: 'button', class: 'small', 'aria-label': `Explain ${entry.entity} ${entry.entity_id}`,
        onclick: () => explainEntry(entry.entity, entry.entity_id),
      }, 'Explain')))));
  }

  async function refreshDevices(tenant) {
    const list = await api('GET', `/__dev/tenants/${encodeURIComponent(tenant)}/devices`);
    deviceSummary.textContent = list.items.length
      ? `${list.items.length} open live stream${list.items.length === 1 ? '' : 's'}; the feed's head is ${list.head}.`
      : 'No device has a live stream open.';
    fill(deviceBody, list.items.map((device) => h('tr', { 'data-stream': device.stream_id, 'data-user': device.email ?? device.user_id },
      h('td', { class: 'num' }, device.stream_id),
      h('td', {}, device.email ?? h('code', {}, device.user_id), device.impersonated ? h('span', { class: 'badge' }, 'impersonated') : null),
      h('td', {}, device.role ?? '—'),
      h('td', {}, duration(device.open_seconds)),
      h('td', { class: 'num' }, device.cursor_seq ?? '—'),
      h('td', {}, device.cursor_from === 'pull' ? 'a pull' : device.cursor_from === 'last_event_id' ? 'Last-Event-ID' : 'not yet'),
      h('td', { class: 'num behind' }, device.behind ?? '—'))));
  }

  async function loadUsers(tenant) {
    if (!tenant) return;
    fill(users, (await tenantUsers(tenant)).map(userOption));
  }

  function explainEntry(entity, id) {
    form.elements.entity.value = entity;
    form.elements.id.value = id;
    explain();
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    explain();
  });

  async function explain() {
    const tenant = context.tenant;
    const query = { user: form.elements.user.value, entity: form.elements.entity.value, id: form.elements.id.value.trim() };
    try {
      const answer = await api('GET', `/__dev/tenants/${encodeURIComponent(tenant)}/explain`, { query });
      const who = users.selectedOptions[0]?.textContent ?? answer.user_id;
      const verdict = answer.held
        ? h('p', { class: 'held', 'data-held': 'true' }, `${who}'s device holds ${answer.entity} ${answer.id}.`)
        : h('p', { class: 'not-held', 'data-held': 'false' }, `${who}'s device does not hold ${answer.entity} ${answer.id}:`);
      fill(result, verdict, answer.reasons.length
        ? h('ul', {}, answer.reasons.map((reason) => h('li', { 'data-code': reason.code }, h('code', {}, reason.code), ' ', reason.detail)))
        : null);
    } catch (error) {
      fill(result, h('p', { class: 'not-held' }, describe(error)));
    }
  }

  poll(refresh, 1500, () => {});
}

// Requests: a live tail of the access log's ring (the last 500), newest first; hovering pauses it.
import { api, poll } from './api.js';
import { h, fill, time } from './dom.js';

const keep = 500;

export function start(context) {
  const body = document.querySelector('#request-table tbody');
  const scroller = document.getElementById('requests-scroll');
  const tenantSelect = document.getElementById('requests-tenant');
  const statusSelect = document.getElementById('requests-status');
  const pauseButton = document.getElementById('requests-pause');
  const state = document.getElementById('requests-state');
  let after = 0;
  let rows = 0;
  let hovered = false;
  let pinned = false;
  let generation = 0;  // bumped by a filter change: answers to older requests are dropped

  context.onTenantsChange((tenants) => {
    const selected = tenantSelect.value;
    fill(tenantSelect, h('option', { value: '' }, 'all tenants'), tenants.map((t) => h('option', { value: t.id }, t.id)));
    tenantSelect.value = tenants.some((t) => t.id === selected) ? selected : '';
  });
  for (const select of [tenantSelect, statusSelect]) select.addEventListener('change', restart);
  scroller.addEventListener('mouseenter', () => { hovered = true; showState(); });
  scroller.addEventListener('mouseleave', () => { hovered = false; showState(); });
  pauseButton.addEventListener('click', () => {
    pinned = !pinned;
    pauseButton.setAttribute('aria-pressed', String(pinned));
    pauseButton.textContent = pinned ? 'Resume' : 'Pause';
    showState();
  });

  const paused = () => hovered || pinned;
  function showState() { state.textContent = paused() ? 'paused' : 'live'; }

  function restart() {
    generation += 1;
    after = 0;
    rows = 0;
    body.replaceChildren();
  }

  async function refresh() {
    if (paused()) return;
    const asked = generation;
    const tail = await api('GET', '/__dev/requests', {
      query: { after, tenant: tenantSelect.value, status: statusSelect.value },
    });
    if (asked !== generation) return;
    after = tail.latest_sequence;
    if (tail.items.length === 0) return;
    body.prepend(...tail.items.map(render));
    rows += tail.items.length;
    while (rows > keep && body.lastElementChild) { body.lastElementChild.remove(); rows -= 1; }
  }

  function render(entry) {
    const statusClass = `status-${String(entry.status)[0]}xx`;
    const fault = entry.fault
      ? h('span', { class: 'badge injected', title: `fault rule ${entry.fault.rule_id}` }, `injected ${entry.fault.action} (${entry.fault.rule_id})`)
      : entry.dropped ? h('span', { class: 'badge injected' }, entry.dropped) : '';
    return h('tr', {
        class: entry.fault ? 'fault-row' : null, 'data-status': entry.status, 'data-fault': entry.fault?.action ?? null,
        'data-sequence': entry.sequence,
      },
      h('td', {}, h('time', { datetime: entry.timestamp }, time(entry.timestamp))),
      h('td', {}, entry.tenant ?? '—'),
      h('td', {}, entry.method),
      h('td', {}, h('code', {}, entry.route)),
      h('td', { class: statusClass }, entry.status),
      h('td', { class: 'num' }, entry.duration_ms.toFixed(1)),
      h('td', {}, h('code', {}, entry.request_id)),
      h('td', {}, fault));
  }

  poll(refresh, 1000, () => { state.textContent = 'offline?'; });
}

// The dev console: a tenant picker shared by the panels (`?tenant=ID` picks one), and the nine panels.
import { api } from './api.js';
import { h, fill, describe } from './dom.js';
import * as tenants from './tenants.js';
import * as mailbox from './mailbox.js';
import * as requests from './requests.js';
import * as faults from './faults.js';
import * as snapshots from './snapshots.js';
import * as act from './act.js';
import * as feed from './feed.js';
import * as clock from './clock.js';
import * as server from './server.js';

const picker = document.getElementById('tenant-select');
const notice = document.getElementById('notice');
const tenantListeners = [];
const listListeners = [];
let known = [];

/** What every panel gets: the selected tenant, the tenant list, and a place to say things. */
const context = {
  get tenant() { return picker.value; },
  get tenants() { return known; },
  /** Selects a tenant everywhere (the picker, Mailbox, Faults, Snapshots). */
  select(id) {
    if (!known.some((t) => t.id === id)) known = [{ id, name: id }, ...known];
    renderPicker(id);
    changed();
  },
  onTenantChange(listener) { tenantListeners.push(listener); },
  onTenantsChange(listener) { listListeners.push(listener); },
  /** Reloads the tenant list (newest first) and tells the panels. */
  async reloadTenants() {
    const page = await api('GET', '/__dev/tenants', { query: { limit: 100 } });
    known = page.items;
    renderPicker(picker.value || localStorage.getItem('edugo.console.tenant') || 'demo');
    for (const listener of listListeners) listener(known);
    return page;
  },
  say(message) { notice.classList.remove('error'); notice.textContent = message; },
  fail(error) { notice.classList.add('error'); notice.textContent = describe(error); },
};

function renderPicker(selected) {
  const ids = known.map((t) => t.id);
  const value = ids.includes(selected) ? selected : (ids.includes('demo') ? 'demo' : ids[0] ?? '');
  fill(picker, known.map((t) => h('option', { value: t.id }, t.id === t.name ? t.id : `${t.id} — ${t.name}`)));
  picker.value = value;
}

function changed() {
  localStorage.setItem('edugo.console.tenant', picker.value);
  for (const listener of tenantListeners) listener(picker.value);
}

picker.addEventListener('change', changed);

for (const panel of [tenants, mailbox, requests, faults, snapshots, feed, act, clock, server]) panel.start(context);
// `/__dev/?tenant=ID` opens the console on that tenant (a link a failing test can print).
const requested = new URLSearchParams(location.search).get('tenant');
context.reloadTenants()
  .then(() => (requested ? context.select(requested) : changed()))
  .catch((error) => context.fail(error));

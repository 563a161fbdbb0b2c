// Mailbox: a tenant's mails, newest first, filtered by address; verification mails can be verified here.
import { api, poll } from './api.js';
import { h, fill, copyButton, dateTime, describe } from './dom.js';

export function start(context) {
  const tenantSelect = document.getElementById('mailbox-tenant');
  const address = document.getElementById('mailbox-address');
  const list = document.getElementById('mail-list');
  const summary = document.getElementById('mailbox-summary');
  let shown = '';

  context.onTenantsChange((tenants) => {
    const selected = tenantSelect.value || context.tenant;
    fill(tenantSelect, tenants.map((t) => h('option', { value: t.id }, t.id)));
    tenantSelect.value = selected;
  });
  context.onTenantChange((id) => { tenantSelect.value = id; refresh(); });
  tenantSelect.addEventListener('change', refresh);
  address.addEventListener('input', refresh);

  async function refresh() {
    const tenant = tenantSelect.value;
    if (!tenant) return;
    const mailbox = await api('GET', '/__dev/mailbox', { tenant });
    const filter = address.value.trim().toLowerCase();
    const mails = mailbox.items.filter((mail) => !filter || mail.to.toLowerCase().includes(filter));
    const key = tenant + '|' + filter + '|' + mails.map((mail) => mail.id).join(',');
    if (key === shown) return;  // unchanged: keep focus and any selection where they are
    shown = key;
    summary.textContent = `${mails.length} of ${mailbox.items.length} mails in ${tenant}`;
    fill(list, mails.map((mail) => render(mail, tenant)));
  }

  function render(mail, tenant) {
    const result = h('span', { class: 'verify-result', role: 'status' });
    const tokenRow = mail.token
      ? h('div', { class: 'token-row' },
          h('span', { class: 'muted' }, mail.kind === 'verify_email' ? 'Link' : 'Token'),
          h('code', { class: 'token' }, mail.kind === 'verify_email' ? `POST /v1/auth/verify-email?token=${mail.token}` : mail.token),
          copyButton(mail.token, 'token'),
          mail.kind === 'verify_email'
            ? h('button', { type: 'button', class: 'small verify', onclick: (event) => verify(event.currentTarget, tenant, mail.token, result) }, 'Verify')
            : null,
          result)
      : null;
    return h('li', { class: 'mail', 'data-kind': mail.kind, 'data-to': mail.to },
      h('header', {},
        h('span', { class: 'subject' }, mail.subject),
        h('span', { class: 'muted' }, 'to ', h('span', { class: 'to' }, mail.to)),
        h('span', { class: 'badge' }, mail.kind),
        h('time', { class: 'muted', datetime: mail.created_at }, dateTime(mail.created_at))),
      h('p', { class: 'body' }, mail.body),
      tokenRow);
  }

  async function verify(button, tenant, token, result) {
    button.disabled = true;
    try {
      await api('POST', '/v1/auth/verify-email', { tenant, query: { token } });
      result.textContent = 'Verified';
    } catch (error) {
      result.textContent = describe(error);
      button.disabled = false;
    }
  }

  poll(refresh, 1500, () => {});
}

// Server: version, uptime, storage, dev and TLS state, and per-route traffic from the access log.
import { api, poll } from './api.js';
import { h, fill, duration } from './dom.js';

export function start() {
  const facts = document.getElementById('server-facts');
  const body = document.querySelector('#traffic-table tbody');
  const caption = document.getElementById('traffic-caption');

  async function refresh() {
    const info = await api('GET', '/__dev/server');
    const row = (name, value, id) => [h('dt', {}, name), h('dd', { id }, value)];
    fill(facts,
      row('Version', info.version, 'server-version'),
      row('Uptime', duration(info.uptime_seconds), 'server-uptime'),
      row('Data', info.data_directory ?? 'in memory (nothing kept)', 'server-data'),
      row('Dev mode', info.dev_mode ? 'on' : 'off', 'server-dev'),
      row('TLS', info.tls.enabled ? 'on' : 'off', 'server-tls'),
      row('TLS pin', info.tls.pin ?? '—', 'server-pin'),
      row('Metrics', info.metrics_enabled ? 'GET /metrics' : 'off', 'server-metrics'));
    const traffic = info.traffic;
    caption.textContent = `Last ${traffic.window_seconds} s of the in-memory access log (covering ${Math.round(traffic.covered_seconds)} s, ${traffic.sampled_requests} requests; the console's own reads not counted).`;
    fill(body, traffic.routes.map((route) => h('tr', {},
      h('td', {}, route.method),
      h('td', {}, h('code', {}, route.route)),
      h('td', { class: 'num' }, route.count),
      h('td', { class: 'num' }, route.requests_per_second.toFixed(2)),
      h('td', { class: 'num' }, route.p50_ms.toFixed(1)),
      h('td', { class: 'num' }, route.p99_ms.toFixed(1)))));
  }

  poll(refresh, 3000, () => {});
}

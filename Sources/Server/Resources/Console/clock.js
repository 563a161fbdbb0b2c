// Clock: the server's now and offset; advance by presets or a custom amount, reset.
import { api, poll } from './api.js';
import { dateTime, duration } from './dom.js';

export function start(context) {
  const now = document.getElementById('clock-now');
  const offset = document.getElementById('clock-offset');
  const form = document.getElementById('clock-form');

  function show(clock) {
    now.textContent = dateTime(clock.now);
    now.setAttribute('title', clock.now);
    offset.textContent = clock.offset_seconds === 0
      ? 'none (real time)'
      : `+${duration(clock.offset_seconds)} (${clock.offset_seconds} s)`;
    offset.dataset.seconds = String(clock.offset_seconds);
  }

  async function advance(seconds) {
    try {
      show(await api('POST', '/__dev/clock', { body: { advance_seconds: seconds } }));
      context.say(`Moved the server's clock forward by ${duration(seconds)}.`);
    } catch (error) {
      context.fail(error);
    }
  }

  for (const button of document.querySelectorAll('[data-advance]')) {
    button.addEventListener('click', () => advance(Number(button.dataset.advance)));
  }
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const fields = new FormData(form);
    advance(Math.round(Number(fields.get('amount')) * Number(fields.get('unit'))));
  });
  document.getElementById('clock-reset').addEventListener('click', async () => {
    try {
      show(await api('DELETE', '/__dev/clock'));
      context.say("The server's clock is back to real time.");
    } catch (error) {
      context.fail(error);
    }
  });

  poll(async () => show(await api('GET', '/__dev/clock')), 1000, () => {});
}

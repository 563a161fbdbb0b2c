// Building DOM from data. Every value is inserted as text (never parsed as HTML): names, mails and
// paths come from users and requests.

/** Creates an element; `props` are attributes, `on*` functions listeners; children are nodes or text. */
export function h(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') node.className = value;
    else if (key.startsWith('on') && typeof value === 'function') node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  append(node, children);
  return node;
}

/** Replaces the children of `node`. */
export function fill(node, ...children) {
  node.replaceChildren();
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** A small button that copies `text` to the clipboard; `label` names what it copies. */
export function copyButton(text, label) {
  const button = h('button', { type: 'button', class: 'small', 'aria-label': `Copy ${label}` }, 'Copy');
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = 'Copied';
    } catch {
      button.textContent = 'Copy failed';
    }
    setTimeout(() => { button.textContent = 'Copy'; }, 1500);
  });
  return button;
}

/** A short local time of an RFC 3339 timestamp. */
export function time(iso) {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? String(iso) : date.toLocaleTimeString([], { hour12: false });
}

/** A date and time of an RFC 3339 timestamp. */
export function dateTime(iso) {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? String(iso) : date.toLocaleString([], { hour12: false });
}

/** `1 d 2 h 5 min` for a number of seconds (`0 s` for none). */
export function duration(seconds) {
  let rest = Math.abs(Math.trunc(seconds));
  const parts = [];
  for (const [size, unit] of [[86400, 'd'], [3600, 'h'], [60, 'min'], [1, 's']]) {
    if (rest >= size) { parts.push(`${Math.floor(rest / size)} ${unit}`); rest %= size; }
  }
  return (seconds < 0 ? '-' : '') + (parts.join(' ') || '0 s');
}

/** A picker's option for an account: its id, shown as `email (role)`. */
export function userOption(user) {
  return h('option', { value: user.id }, `${user.email} (${user.role})`);
}

/** The message of an error: the problem's detail and field errors when the server sent them. */
export function describe(error) {
  const fields = error?.problem?.errors?.map((e) => `${e.field}: ${e.message}`) ?? [];
  return [error?.message ?? String(error), ...fields].join(' — ');
}

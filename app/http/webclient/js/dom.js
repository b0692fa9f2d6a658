// Small DOM helpers: elements with attributes and children, and the live region.

/** `h("button", {class: "x", onclick}, "text", child)`: an element. */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on")) el.addEventListener(name.slice(2), value);
    else if (name === "class") el.className = value;
    else if (name === "dataset") Object.assign(el.dataset, value);
    else el.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** A labelled <select> `name` (id `f-<name>`) of `choices` ([value, text]), `chosen` selected. */
export function selectField(name, label, choices, chosen) {
  const id = `f-${name}`;
  return h("div", { class: "field" },
    h("label", { for: id }, label),
    h("select", { id, name },
      choices.map(([value, text]) => h("option", { value, selected: value === chosen }, text))));
}

/** A list's More button: the list shows `page` items at first and a page more at each click
 * (`refresh` reads it again), up to `most`, the most one reading of the API gives.
 * `limit()` is what to ask for; `shown(answer, limit)` hides the button on the last page;
 * `reset()` goes back to one page (another filter). */
export function pager(testid, label, page, most, refresh) {
  let pages = 1; // each reading asks for every page shown, so a refresh keeps them
  const button = h("button", { type: "button", class: "more", hidden: true,
    "data-testid": testid, onclick: () => { pages += 1; refresh(); } }, label);
  return {
    button,
    limit: () => Math.min(page * pages, most),
    reset: () => { pages = 1; },
    shown(answer, limit) {
      button.hidden = answer.next_offset === null || answer.next_offset === undefined
        || limit >= most;
    },
  };
}

/** Say `text` to screen readers (the page's polite live region). */
export function announce(text) {
  const region = document.getElementById("announcer");
  if (!region) return;
  const line = h("p", {}, text);
  region.append(line);
  while (region.childElementCount > 5) region.firstElementChild.remove();
}

/** Show `text` as the page's error line (empty: clear it), with a button after it when
 * `action` (`{label, run}`) says what to do about it. The line is fixed at the bottom of
 * the window, and the page ends that much lower (--error-height), so that it hides nothing
 * that cannot be scrolled into sight; its × clears it. */
export function showError(text, action = null) {
  const el = document.getElementById("error");
  if (!el) return;
  el.textContent = text || "";
  if (text && action) {
    el.append(" ", h("button", { type: "button", class: "error-action",
      "data-testid": "error-action", onclick: action.run }, action.label));
  }
  const line = document.getElementById("error-line");
  if (!line) return;
  line.hidden = !text;
  if (!lineWatched && "ResizeObserver" in window) { // (its height follows its wrapped text)
    lineWatched = true;
    new ResizeObserver(() => document.body.style.setProperty("--error-height",
      `${line.hidden ? 0 : line.offsetHeight}px`)).observe(line);
  }
  document.body.style.setProperty("--error-height", `${line.hidden ? 0 : line.offsetHeight}px`);
}

let lineWatched = false;

/** Copy `text`, then say so on `button`. */
export async function copyText(text, button, done) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const area = h("textarea", { class: "offscreen", "aria-hidden": "true" });
    area.value = text;
    document.body.append(area);
    area.select();
    document.execCommand("copy");
    area.remove();
  }
  const before = button.textContent;
  button.textContent = done;
  setTimeout(() => { button.textContent = before; }, 1500);
}

const SLOW_PRESS = 600; // ms before a pressed button says that its request is on its way

/** A request sent by pressing `button`: `work()` resolves to true when it is done with (the
 * screen moves on), false when the button is to be pressed again (a refusal said by `work`).
 * Meanwhile the button (and the rest of its form's) is disabled, so that a double tap or an
 * impatient Enter does not send it twice, and from 0.6 s on it says `slowWord` ("Sending…");
 * all comes back as it was unless the work is done with. A press while disabled does nothing. */
export async function sentBy(button, work, slowWord) {
  if (button.disabled) return;
  const group = button.form ? [...button.form.querySelectorAll("button")] : [button];
  const held = group.filter((b) => !b.disabled);
  const before = [...button.childNodes];
  held.forEach((b) => { b.disabled = true; });
  const slow = setTimeout(() => {
    button.replaceChildren(slowWord);
    button.setAttribute("aria-busy", "true");
  }, SLOW_PRESS);
  let done = false;
  try {
    done = await work();
  } finally {
    clearTimeout(slow);
    if (!done) {
      button.replaceChildren(...before);
      button.removeAttribute("aria-busy");
      held.forEach((b) => { b.disabled = false; });
    }
  }
}
